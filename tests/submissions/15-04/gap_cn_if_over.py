"""Known-wrong clip_grad_norm (gap round): scales only `if total > max_norm`. With a nan gradient entry the
total norm is nan, the comparison is False and nothing is scaled, where clip_grad_norm_ (error_if_nonfinite
False) multiplies every gradient by the nan factor."""
from course.grading.class_run.submissions import edited

CELLS = {"clip_norm_impl": edited("15-04", "clip_norm_impl",
    ("    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n"
     "    with torch.no_grad():\n"
     "        for g in grads:\n"
     "            g.mul_(coef.to(g.device, g.dtype))",
     "    if total > max_norm:\n"
     "        coef = max_norm / (total + 1e-6)\n"
     "        with torch.no_grad():\n"
     "            for g in grads:\n"
     "                g.mul_(coef.to(g.device, g.dtype))"))}
EXPECT = {"clip_grad_norm": "fail"}
