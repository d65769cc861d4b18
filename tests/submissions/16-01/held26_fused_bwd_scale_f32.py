"""Round 26 (held out): the backward scales with keep / (1 - p) first: grad * (keep / (1 - ctx.p)) * d. A boolean
tensor divided by a Python float has the default dtype, float32, so for float64 x the scale 1 / (1 - p) is rounded to
float32 in the gradient only (the forward is the reference's): p = 0.3 gives 1.4285714626 instead of 1.4285714286, a
relative error of 2.4e-8 in every kept element's gradient (exact for p = 0.5 or 0.75). Breaks "Its autograd formula gives
x the gradient grad * keep / (1 - p) * gelu'(x)" and "equals ... for float32 and float64 x ... in value and in
gradient" on float64 x, p = 0.3."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    return grad * keep / (1 - ctx.p) * d, None, None\n",
    "    return grad * (keep / (1 - ctx.p)) * d, None, None\n"))}
