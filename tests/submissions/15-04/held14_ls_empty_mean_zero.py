"""Held-out round 14: reduction="mean" divides the sum by max(N, 1) to "avoid 0/0", so an empty batch gives
0 where F.cross_entropy(..., reduction="mean") gives nan. The text: "It must agree with
F.cross_entropy(..., label_smoothing=...) for every smoothing in [0, 1] and every reduction"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("        return loss.mean()\n",
     "        return loss.sum() / max(loss.numel(), 1)   # no 0/0 on an empty batch\n"))}
