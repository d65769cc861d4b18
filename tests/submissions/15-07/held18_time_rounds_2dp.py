"""Known-wrong time_op (round 18): returns the mean rounded to two decimals ("0.01 ms is plenty"). The text
asks for the mean milliseconds per call as a float; a 3 microsecond op reports 0.0 and every result is off
by up to 5 microseconds."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ("        return start.elapsed_time(end) / iters\n",
     "        return round(start.elapsed_time(end) / iters, 2)\n"),
    ("    return (time.perf_counter() - t0) * 1000 / iters\n",
     "    return round((time.perf_counter() - t0) * 1000 / iters, 2)\n"))}
EXPECT = {"cuda_timing": "fail"}
