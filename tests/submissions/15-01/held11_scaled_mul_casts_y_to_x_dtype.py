"""Wrong: "Implement ScaledMul.apply(x, y, alpha) = alpha * x * y". To make the two tensors agree this
version casts y to x's dtype first, so for x float32 and y float64 it returns a float32 product (y
rounded to float32) where alpha * x * y, by PyTorch's type promotion, is float64 at full precision."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "fail"}
CELLS = {"scaled_mul_impl": edited(
    "15-01", "scaled_mul_impl",
    ("        ctx.save_for_backward(x, y)\n", "        y = y.to(x.dtype)\n        ctx.save_for_backward(x, y)\n"))}
