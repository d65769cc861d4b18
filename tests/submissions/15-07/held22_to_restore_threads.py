"""Held-out round 22 (Exercise 4, "time_op changes none of these itself ..., so the caller finds them as fn
left them"): time_op copies the bandwidth demo's try/finally and puts the caller's thread count back after
timing, so a fn that changes torch.set_num_threads leaves no trace for the caller."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "    device = torch.device(device)\n",
    "    device = torch.device(device)\n"
    "    threads = torch.get_num_threads()\n"
    "    try:\n"
    "        return _time_op(fn, warmup, iters, device)\n"
    "    finally:\n"
    "        torch.set_num_threads(threads)  # leave the machine as we found it\n"
    "\n"
    "\n"
    "def _time_op(fn, warmup, iters, device):\n",
))}
