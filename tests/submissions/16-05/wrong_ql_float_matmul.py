"""Dequantizes both operands and multiplies in float32: the values are close, but no integer kernel runs."""
from course.grading.class_run.submissions import edited

EXPECT = {"qlinear": "fail"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", (
    "acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T",
    "acc = (qx.to(torch.float32) - x_zero_point) @ qw.to(torch.float32).T"))}
