"""Subtracts the zero point while the levels are still uint8: levels below it wrap around."""
from course.grading.class_run.submissions import edited

EXPECT = {"qlinear": "fail"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", ("(qx.to(torch.int32) - x_zero_point)", "(qx - x_zero_point).to(torch.int32)"))}
