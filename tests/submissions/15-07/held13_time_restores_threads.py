"""Held-out round 13 (issue 39): time_op saves torch.get_num_threads() and restores it in a finally (as
the bandwidth demo does), so when fn changes the thread count the caller finds the old one, not what fn
left. Breaks: "time_op changes none of these itself ... so the caller finds them as fn left them"."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited("15-07", "timing_impl",
    ("    device = torch.device(device)\n",
     "    threads = torch.get_num_threads()\n    try:\n        return _time_op(fn, warmup, iters, device)\n"
     "    finally:\n        torch.set_num_threads(threads)\n\n\n"
     "def _time_op(fn, warmup, iters, device):\n    device = torch.device(device)\n"))}
EXPECT = {"cuda_timing": "fail"}
