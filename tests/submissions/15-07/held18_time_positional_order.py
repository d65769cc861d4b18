"""Known-wrong time_op signature (round 18): the parameters are (fn, iters=10, warmup=3, device="cpu"),
not the text's time_op(fn, warmup=3, iters=10, device="cpu"). Keyword calls work; a positional call
time_op(fn, 2, 5) warms up 5 times and averages over 2 timed calls."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ('def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:',
     'def time_op(fn, iters: int = 10, warmup: int = 3, device="cpu") -> float:'))}
EXPECT = {"cuda_timing": "fail"}
