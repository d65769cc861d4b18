"""Held-out round 22 (section 5, "start.record(), the calls, end.record(), then torch.cuda.synchronize()
(or end.synchronize()) and start.elapsed_time(end)"; Exercise 4, "for CUDA use events and synchronize as
above"): time_op reads elapsed_time right after end.record(), without waiting for the end event; on a GPU
that raises (the event has not completed) or reads a time before the work finished."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "        end.synchronize()\n",
    "",
))}
