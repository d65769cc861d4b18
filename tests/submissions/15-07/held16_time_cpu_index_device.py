"""Known-wrong time_op (round 16): recognises the CPU only as "cpu" or torch.device("cpu"); every other device
takes the CUDA path. The text says device is a string or torch.device and the CPU uses time.perf_counter():
"cpu:0" / torch.device("cpu", 0) is the CPU, yet here it goes to CUDA events (an error without CUDA)."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ('    device = torch.device(device)\n',
     ''),
    ('    if device.type == "cuda":',
     '    if device not in ("cpu", torch.device("cpu")):'),
    ('        torch.cuda.synchronize(device)', '        torch.cuda.synchronize()'))}
EXPECT = {"cuda_timing": "fail"}
