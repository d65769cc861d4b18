"""Held-out round 27, written as wrong, dropped from the count as defensible (Exercise 4: "for CUDA use events
and synchronize as above"): on CUDA time_op synchronizes before starting and before stopping a
time.perf_counter wall clock instead of recording CUDA events. "As above" is section 5's list, whose third
bullet gives exactly this ("or, with a wall clock, call `torch.cuda.synchronize()` before starting and before
stopping it"), and `unusual_correct.py` (EXPECT pass) times CUDA this way: the course reads the sentence as
allowing it. Mean ms per call of the queued work either way. Round 27 made the sentence say so: "for CUDA
time as above (CUDA events, or a wall clock with `torch.cuda.synchronize()` before starting and before
stopping it)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "pass"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)\n"
    "        start.record()\n"
    "        for _ in range(iters):\n"
    "            fn()\n"
    "        end.record()\n"
    "        end.synchronize()\n"
    "        return start.elapsed_time(end) / iters\n",
    "        t0 = time.perf_counter()\n"
    "        for _ in range(iters):\n"
    "            fn()\n"
    "        torch.cuda.synchronize(device)\n"
    "        return (time.perf_counter() - t0) * 1000 / iters\n",
))}
