"""The rule upside down: reverse mode when x has fewer elements than f(x), forward mode otherwise."""
from course.grading.class_run.submissions import edited

EXPECT = {"jacobian": "fail"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", ("if x.numel() < n_out:", "if x.numel() > n_out:"))}
