"""Held-out round 29 (15-07 cuda_timing): on CUDA, floor-divides the event time by iters.

Violates "returns the mean milliseconds per call as a float": `elapsed // iters` drops the fraction, e.g.
25 ms over 10 calls gives 2.0 instead of 2.5, and any call under 1 ms per call gives 0.0. CPU path correct.
"""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "        return start.elapsed_time(end) / iters",
    "        return start.elapsed_time(end) // iters"))}
EXPECT = {"cuda_timing": "fail"}
