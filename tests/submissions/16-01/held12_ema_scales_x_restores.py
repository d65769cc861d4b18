"""Wrong: "x is left unchanged". To avoid a temporary, this kernel scales x in place by (1 - decay), adds
it to avg and divides it back. x comes back only up to rounding, and with decay == 1 it becomes 0 / 0 =
NaN (avg itself is right in every case). The schema still declares only avg, so the write to x is also an
undeclared mutation."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "16-01", "ema_impl",
    ("        avg.mul_(decay).add_(x, alpha=1 - decay)\n",
     "        x.mul_(1 - decay)\n        avg.mul_(decay).add_(x)\n        x.div_(1 - decay)\n"))}
