"""Held-out round 22 (section 5, "put CUDA events in the stream ... start.elapsed_time(end) gives
milliseconds"): the events are created without enable_timing=True; on a real GPU elapsed_time then raises
("Both events must be created with argument 'enable_timing=True'")."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)",
    "start, end = torch.cuda.Event(), torch.cuda.Event()",
))}
