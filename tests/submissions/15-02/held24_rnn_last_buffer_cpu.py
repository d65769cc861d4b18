"""Wrong: "`last`: shape `(B, D*H)`, the top layer's final hidden state for each sequence run alone" (and the
RNN may live on any device: the notebook's own demo runs `run_packed_rnn` on `DEVICE`). This version fills `last`
direction by direction into `torch.zeros(B, D*H, dtype=h.dtype)` built without `device=`: values, dtype and
gradients are right on the CPU, but for an RNN on a GPU `last` silently comes back on the CPU (the copy into the
CPU buffer crosses devices), so `head(last)` in the demo fails."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "fail", "stream": "pass"}
CELLS = {"packed_rnn_impl": edited(
    "15-02", "packed_rnn_impl",
    ("    last = torch.cat([h[-d + k] for k in range(d)], dim=-1)\n",
     "    H = h.shape[-1]\n"
     "    last = torch.zeros(h.shape[1], d * H, dtype=h.dtype)\n"
     "    for k in range(d):\n"
     "        last[:, k * H:(k + 1) * H] = h[-d + k]\n"))}
