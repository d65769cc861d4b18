"""Held-out round 22 (Exercise 4, "device is a string or torch.device; for CUDA use events and synchronize"):
time_op recognises CUDA by comparing str(device) with "cuda", so device="cuda:0" or torch.device("cuda", 0)
takes the CPU branch: a wall clock without any synchronize, which measures only the kernel launches."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "    device = torch.device(device)\n",
    "",
), (
    "    if device.type == \"cuda\":\n",
    "    if str(device) == \"cuda\":\n",
), (
    "        torch.cuda.synchronize(device)\n",
    "        torch.cuda.synchronize()\n",
))}
