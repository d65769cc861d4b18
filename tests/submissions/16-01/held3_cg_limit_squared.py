"""Wrong (held-out round 3): the backward computes grad * (1 - y**2 / limit**2); for a small limit such as
1e-200 (float64), limit**2 underflows to 0 and the gradient is nan, where grad * (1 - (y / limit)**2) is exact."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "fail", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"grad_impl": edited("16-01", "grad_impl", (
    "    return grad * (1 - (y / ctx.limit) ** 2), None\n", "    return grad * (1 - y ** 2 / ctx.limit ** 2), None\n"))}
