"""Forgets the activations' zero point: multiplies the raw uint8 levels."""
from course.grading.class_run.submissions import edited

EXPECT = {"qlinear": "fail"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", ("(qx.to(torch.int32) - x_zero_point)", "qx.to(torch.int32)"))}
