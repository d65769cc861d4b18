"""Wrong: "alpha is a Python float" ... "Return exactly three gradients: for x, for y" (the gradients of
alpha * x * y for the alpha of that call). This version keeps alpha on the Function class
(ScaledMul._alpha) instead of on ctx, so when two ScaledMul nodes with different alphas are built before
backward (two layers, or a loss with two scaled terms), every backward uses the alpha of the last call."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "fail"}
CELLS = {"scaled_mul_impl": edited(
    "15-01", "scaled_mul_impl",
    ("        ctx.alpha = alpha\n", "        ScaledMul._alpha = alpha\n"),
    ("            gx = (grad_out * y * ctx.alpha)", "            gx = (grad_out * y * ScaledMul._alpha)"),
    ("            gy = (grad_out * x * ctx.alpha)", "            gy = (grad_out * x * ScaledMul._alpha)"))}
