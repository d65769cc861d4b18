"""Passes scale = 1 - p (the keep probability) instead of 1 / (1 - p)."""
from course.grading.class_run.submissions import edited

EXPECT = {"triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", ("n, 1.0 / (1.0 - p), BLOCK=block)", "n, 1.0 - p, BLOCK=block)"))}
