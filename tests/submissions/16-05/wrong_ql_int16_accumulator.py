"""Accumulates in int16: the sum overflows once K grows (and the accumulator is not int32)."""
from course.grading.class_run.submissions import edited

EXPECT = {"qlinear": "fail"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", (
    "acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T",
    "acc = (qx.to(torch.int16) - x_zero_point) @ qw.to(torch.int16).T"))}
