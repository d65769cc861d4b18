"""Held-out round 25 (Exercise 4: "calls `fn()` `warmup` times untimed, then `iters` times timed, and
returns the mean milliseconds per call"): on CUDA the start event is recorded before the warm-up loop, so
the warm-up calls are inside the timed interval (divided by iters only). Wrong on any CUDA device with
warmup >= 1 (the CPU branch is right)."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "    device = torch.device(device)\n"
    "    for _ in range(warmup):\n"
    "        fn()\n"
    "    if device.type == \"cuda\":\n"
    "        torch.cuda.synchronize(device)\n"
    "        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)\n"
    "        start.record()\n",
    "    device = torch.device(device)\n"
    "    if device.type == \"cuda\":\n"
    "        torch.cuda.synchronize(device)\n"
    "        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)\n"
    "        start.record()\n"
    "        for _ in range(warmup):\n"
    "            fn()\n"
    "    else:\n"
    "        for _ in range(warmup):\n"
    "            fn()\n"
    "    if device.type == \"cuda\":\n",
))}
