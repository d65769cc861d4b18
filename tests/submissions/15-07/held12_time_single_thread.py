"""Held-out round 12 (time_op: "fn must be called ... just as the caller would call it"): like the notebook's
copy_bandwidth demo, the timed CPU calls run with torch.set_num_threads(1) ("one core, steadier numbers"),
restored afterwards, so fn does not run with the caller's intra-op thread count."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "    t0 = time.perf_counter()\n    for _ in range(iters):\n        fn()\n    return (time.perf_counter() - t0) * 1000 / iters",
    "    threads = torch.get_num_threads()\n    torch.set_num_threads(1)  # one core: steadier numbers\n"
    "    try:\n        t0 = time.perf_counter()\n        for _ in range(iters):\n            fn()\n"
    "        return (time.perf_counter() - t0) * 1000 / iters\n    finally:\n        torch.set_num_threads(threads)",
))}
