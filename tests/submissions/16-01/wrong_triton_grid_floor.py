"""Sizes the grid with n // block: the last, partial block is never computed."""
from course.grading.class_run.submissions import edited

EXPECT = {"triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", ("[(triton.cdiv(n, block),)]", "[(n // block,)]"))}
