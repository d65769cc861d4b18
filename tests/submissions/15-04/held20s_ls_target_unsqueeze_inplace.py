"""Held-out round 20, second pass (not counted): the target is given its class dimension with unsqueeze_(1), in
place, so the caller's target tensor comes back with shape (N, 1). The text: "Like `F.cross_entropy`, it ...
leaves its inputs unchanged"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("    nll = -log_p.gather(1, target.unsqueeze(1)).squeeze(1)\n",
     "    nll = -log_p.gather(1, target.unsqueeze_(1)).squeeze(1)\n"))}
