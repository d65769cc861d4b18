"""Wrong (round 24, second pass, not counted): "`output` and `last` come back in the RNN's own dtype, on its
device" and "`output`: shape `(B, T, D*H)` where `T = padded.shape[1]` (keep the input's time dimension even when
it is longer than the longest sequence)". This version pads the packed output to `T` itself with
`torch.zeros(..., dtype=output.dtype)`: the dtype is right (held21_rnn_pad_default_dtype's float32 block is gone),
but the block is made without `device=`, so for an RNN on a GPU `torch.cat` of the CUDA output with the CPU zeros
raises whenever `T` is longer than every sequence."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "fail", "stream": "pass"}
CELLS = {"packed_rnn_impl": edited(
    "15-02", "packed_rnn_impl",
    ("    output, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])\n",
     "    output, _ = pad_packed_sequence(out, batch_first=True)\n"
     "    extra = padded.shape[1] - output.shape[1]\n"
     "    if extra > 0:\n"
     "        output = torch.cat([output, torch.zeros(output.shape[0], extra, output.shape[2], dtype=output.dtype)],\n"
     "                           dim=1)\n"))}
