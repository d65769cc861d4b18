"""Wrong: "`output`: shape `(B, T, D*H)` where `T = padded.shape[1]` ..., equal to the RNN's output for each
sequence run **alone**". This version pads the packed output to `T` itself with `torch.zeros(...)` built without
`dtype=`/`device=`: when `T` is longer than every sequence, the output of a bfloat16 or float16 RNN comes back
as float32 (and on a GPU the concatenation fails)."""
from course.grading.class_run.submissions import edited

EXPECT = {"packed_rnn": "fail"}
CELLS = {"packed_rnn_impl": edited(
    "15-02", "packed_rnn_impl",
    ("    output, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])\n",
     "    output, _ = pad_packed_sequence(out, batch_first=True)\n"
     "    extra = padded.shape[1] - output.shape[1]\n"
     "    if extra > 0:\n"
     "        output = torch.cat([output, torch.zeros(output.shape[0], extra, output.shape[2])], dim=1)\n"))}
