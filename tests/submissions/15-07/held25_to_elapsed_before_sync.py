"""Held-out round 25 (Exercise 4 / section 5: "`start.record()`, the calls, `end.record()`, then
`torch.cuda.synchronize()` (or `end.synchronize()`) and `start.elapsed_time(end)` gives milliseconds"): on
CUDA the elapsed time is read right after `end.record()`, before waiting for the GPU, and the synchronize
comes afterwards. On a GPU with queued work the end event has not completed yet, so the reading is wrong
(CUDA refuses it, or the stand-in's clock has not reached the end event)."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "        end.record()\n"
    "        end.synchronize()\n"
    "        return start.elapsed_time(end) / iters\n",
    "        end.record()\n"
    "        ms = start.elapsed_time(end) / iters\n"
    "        end.synchronize()\n"
    "        return ms\n",
))}
