"""A straight-through estimator without the mask: the gradient also passes where the value was clamped."""
from course.grading.class_run.submissions import edited

EXPECT = {"fake_quant": "fail"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", ("return grad * inside, None", "return grad, None"))}
