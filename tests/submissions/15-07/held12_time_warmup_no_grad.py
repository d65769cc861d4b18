"""Held-out round 12 (time_op: "fn must be called exactly warmup + iters times, just as the caller would call
it: in the caller's grad mode"): the warm-up calls run under torch.no_grad() ("no need to build graphs we
throw away"); only the timed calls see the caller's grad mode."""
from course.grading.class_run.submissions import edited

EXPECT = {"cuda_timing": "fail"}
BASE = "reference"
CELLS = {"timing_impl": edited("15-07", "timing_impl", (
    "    for _ in range(warmup):\n        fn()\n",
    "    with torch.no_grad():  # warm-up results are thrown away: no graphs needed\n"
    "        for _ in range(warmup):\n            fn()\n",
))}
