"""Known-wrong ScaledMul (gap round): backward computes both gradients every time and only then drops the
one ctx.needs_input_grad says is not needed: the values are right, but the text says to compute nothing
for a tensor that needs no gradient."""
from course.grading.class_run.submissions import edited

CELLS = {"scaled_mul_impl": edited("15-01", "scaled_mul_impl", (
    "        gx = gy = None\n"
    "        if ctx.needs_input_grad[0]:\n"
    "            gx = (grad_out * y * ctx.alpha).sum_to_size(x.shape)\n"
    "        if ctx.needs_input_grad[1]:\n"
    "            gy = (grad_out * x * ctx.alpha).sum_to_size(y.shape)\n"
    "        return gx, gy, None",
    "        gx = (grad_out * y * ctx.alpha).sum_to_size(x.shape)\n"
    "        gy = (grad_out * x * ctx.alpha).sum_to_size(y.shape)\n"
    "        need_x, need_y, _ = ctx.needs_input_grad\n"
    "        return (gx if need_x else None), (gy if need_y else None), None"))}
EXPECT = {"scaled_mul": "fail"}
