"""Correct, defensible by the text (written as wrong, kept as correct): the hook always multiplies by
clamp(max_norm / norm, max=1), clip_grad_norm_'s branch-free form. It differs from "multiply by
max_norm / norm when norm > max_norm; leave it alone otherwise" only when a gradient holds a NaN (the norm
is NaN and every entry becomes NaN), and round 8 already ruled that the text speaks of no non-finite
gradient (unusual_correct_2.py clips this way); written blind, it kept full marks, as that ruling says."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "pass"}
CELLS = {"grad_clip_impl": edited(
    "15-01", "grad_clip_impl",
    ("        if norm > max_norm:\n            p.grad.mul_(max_norm / norm)\n",
     "        p.grad.mul_(torch.clamp(max_norm / norm, max=1.0))\n"))}
