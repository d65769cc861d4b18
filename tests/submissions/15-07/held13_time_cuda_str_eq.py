"""Held-out round 13 (issue 39): time_op takes the CUDA path only when str(device) == "cuda", so
device="cuda:0" or torch.device("cuda", 0) is timed with perf_counter and no synchronize: it measures the
launches, not the work. Breaks: "device is a string or torch.device; for CUDA use events and synchronize"."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited("15-07", "timing_impl",
    ('    if device.type == "cuda":', '    if str(device) == "cuda":'))}
EXPECT = {"cuda_timing": "fail"}
