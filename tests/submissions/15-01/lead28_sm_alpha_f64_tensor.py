"""Round 28 (lead, from the helper's open item): for floating inputs ScaledMul multiplies by alpha made a 0-dim
float64 tensor (to keep alpha's full precision); integer inputs get the Python float. For x, y of shape (3, 4) the
0-dim tensor does not change the result's dtype, but for 0-dim float32 x and y the product is float64. The text says: compute alpha * x * y in the inputs'
dtype (a float32 result for float32 inputs)."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "fail"}
CELLS = {"scaled_mul_impl": edited(
    "15-01", "scaled_mul_impl",
    ("        return alpha * x * y\n", "        a = torch.tensor(alpha, dtype=torch.float64) if x.is_floating_point() else alpha\n"
     "        return a * x * y\n"))}
