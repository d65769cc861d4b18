"""Held-out round 12: the target gets an extra dimension in place (`target.unsqueeze_(1)`) for the
gather, so the caller's target tensor comes back with shape (N, 1). Its values are unchanged; the
exercise says the function "leaves its inputs unchanged", like F.cross_entropy."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("nll = -log_p.gather(1, target.unsqueeze(1)).squeeze(1)",
     "if target.dim() == 1:\n        target.unsqueeze_(1)\n    nll = -log_p.gather(1, target).squeeze(1)"))}
