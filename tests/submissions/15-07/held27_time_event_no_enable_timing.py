"""Held-out round 27 (Exercise 4: "for CUDA use events and synchronize as above" - section 1's code creates
them as `torch.cuda.Event(enable_timing=True)`): time_op creates its events without enable_timing=True.
On a GPU, `start.elapsed_time(end)` then raises (events must be created with enable_timing=True), so
time_op on CUDA returns no time at all."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)\n",
    "        start, end = torch.cuda.Event(), torch.cuda.Event()\n",
))}
