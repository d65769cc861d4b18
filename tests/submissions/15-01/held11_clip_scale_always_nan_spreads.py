"""Wrong (reclassified in round 18; written as wrong in round 11, then kept as correct): the hook always
multiplies by clamp(max_norm / norm, max=1), clip_grad_norm_'s branch-free form without its 1e-6. Round 11
kept it because it seemed to differ from "multiply by max_norm / norm when norm > max_norm; leave it alone
otherwise" only when a gradient holds a NaN, which round 8 ruled the text does not speak of. It also differs
on finite inputs: for max_norm = 0 and an all-zero gradient (norm 0, not above 0: leave it alone) the factor
is 0 / 0 = nan and the zeros become nan (test_clipping_leaves_zero_gradient_alone[max_norm0]; the same code
as held18_gc_clamp_scale.py)."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited(
    "15-01", "grad_clip_impl",
    ("        if norm > max_norm:\n            p.grad.mul_(max_norm / norm)\n",
     "        p.grad.mul_(torch.clamp(max_norm / norm, max=1.0))\n"))}
