"""Wrong: "`padded`: shape `(B, T, *)` ... each sequence a tensor of shape `(L_i, *)` (any trailing shape, any
dtype ...)". This version scatters all steps into a flat `(B*T, *)` buffer and views it back with
`flat.reshape(B, -1, *trailing)`. When the trailing shape holds a zero (sequences of shape `(L_i, 0)` or
`(L_i, 3, 0)`: no features per step) the buffer has no elements and `-1` is ambiguous: reshape raises
RuntimeError, where `pad_sequence` returns a `(B, T, 0)` tensor."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "fail", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("    padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n"
     "    mask = torch.arange(padded.shape[1])[None, :] < lengths[:, None]\n",
     "    B, T, trailing = len(seqs), int(lengths.max()), tuple(seqs[0].shape[1:])\n"
     "    flat = seqs[0].new_zeros((B * T,) + trailing)\n"
     "    for i, s in enumerate(seqs):\n"
     "        flat[i * T:i * T + s.shape[0]] = s\n"
     "    padded = flat.reshape(B, -1, *trailing)\n"
     "    mask = torch.arange(T)[None, :] < lengths[:, None]\n"))}
