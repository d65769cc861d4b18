"""Round 24 (held out): attach_grad_clipping divides by norm / max_norm instead of multiplying by
max_norm / norm. For a max_norm near the bottom of the dtype's range the ratio overflows: a float64 model
with max_norm = 1e-310 (a subnormal) and a gradient of norm ~1 gets norm / max_norm = inf, so every entry
becomes 0 (and an entry of 0 / inf stays 0) where "multiply by max_norm / norm" gives entries ~1e-311, not 0.
Breaks "(multiply by max_norm / norm when norm > max_norm ...)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    "            p.grad.mul_(max_norm / norm)",
    "            p.grad.div_(norm / max_norm)"))}
