"""Wrong (held-out round 28): the hook guards the division the way F.normalize does,
`norm = p.grad.norm().clamp_min(1e-12)`. When the gradient's norm is below 1e-12 and above max_norm, the gradient
is multiplied by max_norm / 1e-12 instead of max_norm / norm, so it ends up well below max_norm. The text:
"multiply by `max_norm / norm` when `norm > max_norm`". Goes wrong in float32 (or float64) on a gradient of four
elements 1e-13 (norm 2e-13) with max_norm 1e-13: expected every element 5e-14 (scale 0.5), returns 1e-14
(scale 0.1); every gradient whose norm is at least 1e-12 is right."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    "        norm = p.grad.norm()\n",
    "        norm = p.grad.norm().clamp_min(1e-12)  # never divide by ~0, as F.normalize does\n"))}
