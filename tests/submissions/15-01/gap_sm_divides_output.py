"""Known-wrong ScaledMul (gap round): saves the output and gets each gradient as out / input
(d(alpha x y)/dx = out / x), which is 0/0 = nan wherever an input is exactly zero."""
from course.grading.class_run.submissions import edited

CELLS = {"scaled_mul_impl": edited("15-01", "scaled_mul_impl",
    ("        ctx.save_for_backward(x, y)\n        ctx.alpha = alpha\n        return alpha * x * y",
     "        out = alpha * x * y\n        ctx.save_for_backward(x, y, out)\n        ctx.alpha = alpha\n        return out"),
    ("        x, y = ctx.saved_tensors", "        x, y, out = ctx.saved_tensors"),
    ("gx = (grad_out * y * ctx.alpha)", "gx = (grad_out * out / x)"),
    ("gy = (grad_out * x * ctx.alpha)", "gy = (grad_out * out / y)"))}
EXPECT = {"scaled_mul": "fail"}
