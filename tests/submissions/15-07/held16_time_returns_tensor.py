"""Known-wrong time_op (round 16, contract walk): averages the per-call times with torch and returns the 0-d tensor
(torch.tensor(times).mean()); the text says it returns the mean milliseconds per call as a float."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ("    t0 = time.perf_counter()\n    for _ in range(iters):\n        fn()\n"
     "    return (time.perf_counter() - t0) * 1000 / iters",
     "    times = []\n    for _ in range(iters):\n        t0 = time.perf_counter()\n        fn()\n"
     "        times.append((time.perf_counter() - t0) * 1000)\n    return torch.tensor(times, dtype=torch.float64).mean()"))}
EXPECT = {"cuda_timing": "fail"}
