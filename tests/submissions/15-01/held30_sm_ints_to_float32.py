"""Wrong (held-out round 30): two integer tensors are turned into float32 (`x.float()`, `y.float()`) before the
product. The text says "two integer tensors give a float result, as alpha * x * y does": alpha * x * y on
integer tensors gives torch's default floating dtype (torch.get_default_dtype()), which is float32 only while the
default is float32. Goes wrong under torch.set_default_dtype(torch.float64) on int64 x = [3], y = [4], alpha =
2.5: alpha * x * y is float64 [30.], this returns float32 [30.]. With the default float32 everything matches."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "fail"}
CELLS = {"scaled_mul_impl": edited("15-01", "scaled_mul_impl", (
    "        return alpha * x * y\n",
    "        if not x.is_floating_point() and not y.is_floating_point():\n"
    "            return alpha * x.float() * y.float()  # integers: compute in float\n"
    "        return alpha * x * y\n"))}
