"""Wrong: "targets is a 1-D integer tensor or a list of ints; return a float tensor ... weights[i] =
1 / count(targets[i])". To make bincount start at the smallest label, this version subtracts the minimum
from targets in place: an int64 tensor handed in is the very tensor torch.as_tensor returns, so the
caller's labels come back shifted (a data set's targets silently change)."""
from course.grading.class_run.submissions import edited

EXPECT = {"balanced": "fail"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("    counts = torch.bincount(targets)\n",
     "    if len(targets):\n        targets -= targets.min()\n    counts = torch.bincount(targets)\n"))}
