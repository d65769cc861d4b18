"""Masks the last block with offs <= n: the store writes one element past the output's end whenever n is not a
multiple of the block (the interpreter lets it land in whatever memory follows)."""
from course.grading.class_run.submissions import edited

EXPECT = {"triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", ("inside = offs < n", "inside = offs <= n"))}
