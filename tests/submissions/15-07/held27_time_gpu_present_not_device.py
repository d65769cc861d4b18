"""Held-out round 27 (Exercise 4: "`device` is a string or `torch.device`; for CUDA use events and
synchronize as above; for the CPU use `time.perf_counter()`"): time_op picks CUDA events whenever a GPU
is present (`torch.cuda.is_available()`), not when `device` says CUDA. On a GPU machine,
`time_op(fn, device="cpu")` times CPU work with CUDA events and never reads time.perf_counter."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    '    if device.type == "cuda":\n',
    "    if torch.cuda.is_available():             # a GPU is there: time on its clock\n",
), (
    "        torch.cuda.synchronize(device)\n",
    "        torch.cuda.synchronize()\n",
))}
