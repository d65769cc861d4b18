"""Held-out round 12 (time_op: "fn must be called ... just as the caller would call it"): time_op seeds the
global RNG first ("the same random inputs in every timing run"), so a fn that draws random numbers does not
draw what the caller's own calls would, and the caller's RNG is left reset."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "    device = torch.device(device)\n",
    "    device = torch.device(device)\n    torch.manual_seed(0)  # the same random inputs in every timing run\n",
))}
