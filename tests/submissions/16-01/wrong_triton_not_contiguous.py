"""Passes x and keep to the kernel as they are: a transposed tensor is read in its memory order, not its shape's."""
from course.grading.class_run.submissions import edited

EXPECT = {"triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", ("    x, keep = x.contiguous(), keep.contiguous()\n", ""))}
