"""Round 24 (held out): ScaledMul's forward computes x * y and scales that product in place,
(x * y).mul_(alpha), to save one temporary. For two integer tensors (tensors that need no gradient, which
the text allows: "x and y are tensors of any dtype", round 24's wording) x * y is an integer tensor and mul_ by the float
alpha raises "result type Float can't be cast to the desired output type Long", where alpha * x * y returns
the float product. Breaks "Implement ScaledMul.apply(x, y, alpha) = alpha * x * y"."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "fail"}
CELLS = {"scaled_mul_impl": edited("15-01", "scaled_mul_impl", (
    "        return alpha * x * y",
    "        return (x * y).mul_(alpha)"))}
