"""Held-out round 27 (section 5: "put **CUDA events** in the stream around the work: `start.record()`, the
calls, `end.record()`", and Exercise 4: "for CUDA use events and synchronize as above"): time_op records
both events on a fresh side stream of its own, not on the stream fn's kernels are queued on. The side stream
is idle, so end completes at once: on a GPU the result is about 0 ms whatever fn queues."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "        start.record()\n",
    "        timer = torch.cuda.Stream(device)          # a quiet stream of our own for the markers\n"
    "        start.record(timer)\n",
), (
    "        end.record()\n",
    "        end.record(timer)\n",
))}
