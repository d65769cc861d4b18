"""Held-out round 29 (15-07 cuda_timing): records the CUDA events on the default stream.

Violates "put CUDA events in the stream around the work": when the caller runs time_op under
`with torch.cuda.stream(s)`, fn's kernels go to s while start/end are recorded on the device's default
stream, so the events do not bracket the work. Wrong for device="cuda" with a non-default current stream.
"""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited("15-07", "timing_impl",
    ("        start.record()", "        start.record(torch.cuda.default_stream(device))"),
    ("        end.record()", "        end.record(torch.cuda.default_stream(device))"))}
EXPECT = {"cuda_timing": "fail"}
