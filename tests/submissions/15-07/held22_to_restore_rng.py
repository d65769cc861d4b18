"""Held-out round 22 (Exercise 4, "with the caller's ... random-number state. time_op changes none of these
itself ..., so the caller finds them as fn left them"): time_op saves the CPU generator's state before the
calls and restores it afterwards ("timing must not perturb the experiment"), so the random numbers fn drew
are drawn again by the caller."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "    device = torch.device(device)\n",
    "    device = torch.device(device)\n"
    "    rng = torch.get_rng_state()\n"
    "    try:\n"
    "        return _time_op(fn, warmup, iters, device)\n"
    "    finally:\n"
    "        torch.set_rng_state(rng)  # timing must not perturb the experiment\n"
    "\n"
    "\n"
    "def _time_op(fn, warmup, iters, device):\n",
))}
