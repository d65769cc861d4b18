"""Held-out round 22 (section 5, "or, with a wall clock, call torch.cuda.synchronize() before starting and
before stopping it"): on CUDA time_op uses perf_counter and synchronizes only before stopping the clock, so
the warm-up calls' queued kernels are timed as if they were part of the timed calls."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "    if device.type == \"cuda\":\n"
    "        torch.cuda.synchronize(device)\n"
    "        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)\n"
    "        start.record()\n"
    "        for _ in range(iters):\n"
    "            fn()\n"
    "        end.record()\n"
    "        end.synchronize()\n"
    "        return start.elapsed_time(end) / iters\n",
    "    if device.type == \"cuda\":\n"
    "        t0 = time.perf_counter()\n"
    "        for _ in range(iters):\n"
    "            fn()\n"
    "        torch.cuda.synchronize(device)\n"
    "        return (time.perf_counter() - t0) * 1000 / iters\n",
))}
