"""Held-out round 9: time_op decides 'is this CUDA?' by comparing a string device with 'cuda', so
device='cuda:0' (a string naming a CUDA device) is timed like the CPU: a wall clock with no synchronize,
measuring only the launches. The text: device is a string or torch.device; for CUDA use events and synchronize."""
from course.grading.class_run.submissions import edited

EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass", "cuda_timing": "fail"}
CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ('    device = torch.device(device)\n',
     '    device = torch.device("cuda" if device == "cuda" else ("cpu" if isinstance(device, str) else device.type))\n'))}
