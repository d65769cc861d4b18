"""Zeroes the kept elements and keeps the dropped ones."""
from course.grading.class_run.submissions import edited

EXPECT = {"triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", ("tl.where(keep != 0, y * scale, 0.0)", "tl.where(keep != 0, 0.0, y * scale)"))}
