"""Held-out round 27 (section 5: "`start.record()`, the calls, `end.record()`, then
`torch.cuda.synchronize()` (or `end.synchronize()`) and `start.elapsed_time(end)`"): time_op waits for the
start event instead of the end event. start completes before the timed work, so elapsed_time(end) is read
while the calls are still queued: on a GPU it raises (end not yet recorded) or the result misses the work."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "        end.synchronize()\n",
    "        start.synchronize()\n",
))}
