"""Known-wrong time_op (round 16): times each call with time.perf_counter() but keeps whole milliseconds
(int()) per call before averaging, so a call of 0.4 ms counts as 0 and a 2.7 ms one as 2. The text asks for
the mean milliseconds per call as a float."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ("    t0 = time.perf_counter()\n    for _ in range(iters):\n        fn()\n"
     "    return (time.perf_counter() - t0) * 1000 / iters",
     "    total = 0\n    for _ in range(iters):\n        t0 = time.perf_counter()\n        fn()\n"
     "        total += int((time.perf_counter() - t0) * 1000)\n    return float(total / iters)"))}
EXPECT = {"cuda_timing": "fail"}
