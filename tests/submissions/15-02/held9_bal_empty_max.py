"""Held-out round 9: class_balanced_weights sizes its count table from targets.max() + 1, which raises on an
empty targets tensor instead of returning the empty weights. The text: "return a float tensor of shape (N,)"
for a 1-D integer tensor or list of N labels; N = 0 is a 1-D tensor too."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "fail", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("    counts = torch.bincount(targets)\n",
     "    counts = torch.zeros(int(targets.max()) + 1, dtype=torch.int64)\n"
     "    counts.index_add_(0, targets, torch.ones_like(targets))\n"))}
