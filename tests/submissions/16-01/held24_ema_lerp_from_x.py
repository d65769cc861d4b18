"""Round 24 (held out): the update is written as avg <- x + decay * (avg - x), in place
(avg.sub_(x).mul_(decay).add_(x)). Mathematically the same, and decay 0 gives x exactly; with decay 1 and an avg
far larger than x, avg - x + x rounds back to avg. But with decay 1 and an x far larger than avg, avg - x rounds
to -x and avg comes back as 0: float32 avg = 1e-3, x = 1e5, decay = 1 gives avg = 0, against "with decay = 1 it
stays as it was"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "fail", "fused": "pass", "triton": "pass"}
CELLS = {"ema_impl": edited("16-01", "ema_impl", (
    "        avg.mul_(decay).add_(x, alpha=1 - decay)\n",
    "        avg.sub_(x).mul_(decay).add_(x)\n"))}
