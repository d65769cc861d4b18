"""Held-out round 13 (issue 39): time_op runs the calls under torch.set_grad_enabled(<the caller's mode>)
as a context manager, so a fn that switches grad mode off (or on) finds it restored on return: the caller
does not find it as fn left it. Breaks: "time_op changes none of these itself ... so the caller finds them
as fn left them"."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited("15-07", "timing_impl",
    ("    device = torch.device(device)\n",
     "    with torch.set_grad_enabled(torch.is_grad_enabled()):\n        return _time_op(fn, warmup, iters, device)\n\n\n"
     "def _time_op(fn, warmup, iters, device):\n    device = torch.device(device)\n"))}
EXPECT = {"cuda_timing": "fail"}
