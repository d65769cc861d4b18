"""Round 20 (held out): the backward multiplies by 1 / limit instead of dividing by limit
(grad * (1 - (y * (1 / limit))**2)); for a subnormal limit 1 / limit overflows to inf, so y = 0 gives NaN
and any other y gives -inf, where the derivative of limit * tanh(x / limit) is finite ('any limit > 0,
tiny ones too')."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "fail", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"grad_impl": edited("16-01", "grad_impl", (
    "    return grad * (1 - (y / ctx.limit) ** 2), None\n",
    "    return grad * (1 - (y * (1.0 / ctx.limit)) ** 2), None\n"))}
