"""Correct but unusual (written as a wrong answer in round 24, and found correct when checked by hand before any
change): `pad_collate` flattens every sequence to `(L_i, F)` with `s.reshape(L_i, -1)`, pads the 2-D rows into a
`new_zeros` buffer of the sequences' dtype and device, and reshapes back to `(B, T, *)`. The intended mistake (a
zero-size trailing dimension making `reshape(L_i, -1)` raise) does not happen: with `L_i >= 1` the `-1` resolves to
0, so `(L_i, 0)` and `(L_i, 3, 0)` sequences pad to `(B, T, 0)` / `(B, T, 3, 0)` as `pad_sequence` does."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("    padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n",
     "    trail = tuple(seqs[0].shape[1:])\n"
     "    flat = [s.reshape(s.shape[0], -1) for s in seqs]\n"
     "    buf = flat[0].new_zeros(len(flat), int(lengths.max()), flat[0].shape[1])\n"
     "    for i, f in enumerate(flat):\n"
     "        buf[i, :f.shape[0]] = f\n"
     "    padded = buf.reshape((len(flat), buf.shape[1]) + trail)\n"))}
