"""Held-out round 13 (issue 39): time_op runs the calls inside torch.random.fork_rng(), so the random
numbers fn drew are undone when it returns: the caller finds the RNG state as it was before, not as fn left
it. Breaks: "time_op changes none of these itself ... so the caller finds them as fn left them"."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited("15-07", "timing_impl",
    ("    device = torch.device(device)\n",
     "    device = torch.device(device)\n    with torch.random.fork_rng(devices=[]):\n        return _time_op(fn, warmup, iters, device)\n\n\n"
     "def _time_op(fn, warmup, iters, device):\n"))}
EXPECT = {"cuda_timing": "fail"}
