"""Held-out round 13 (issue 39): time_op's warmup, iters and device are keyword-only, so the call
time_op(fn, 2, 5, "cpu") the signature in the text allows raises TypeError. Breaks:
"time_op(fn, warmup=3, iters=10, device="cpu") calls fn() warmup times untimed, then iters times timed"."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited("15-07", "timing_impl",
    ('def time_op(fn, warmup: int = 3,', 'def time_op(fn, *, warmup: int = 3,'))}
EXPECT = {"cuda_timing": "fail"}
