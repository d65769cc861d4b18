"""Rebinds the local name instead of writing into avg: the caller's tensor never changes."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited("16-01", "ema_impl", ("        avg.mul_(decay).add_(x, alpha=1 - decay)\n",
                                                  "        avg = decay * avg + (1 - decay) * x\n"))}
