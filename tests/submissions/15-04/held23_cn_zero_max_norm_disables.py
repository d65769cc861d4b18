"""Held-out round 23: max_norm <= 0 is treated as "clipping disabled" (a common config convention), so
the gradients are left as they are; clip_grad_norm_ with max_norm 0 computes coef = 0 and zeroes every
gradient. The text: "Same semantics as `torch.nn.utils.clip_grad_norm_(parameters, max_norm, norm_type)`"
and the factor "min(1, max_norm / (total_norm + 1e-6))"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n",
     "    if max_norm <= 0:                          # clipping switched off\n"
     "        return total\n"
     "    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n"))}
