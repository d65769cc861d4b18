"""Round 17 (held out): the textbook running-average step avg += (1 - decay) * (x - avg): equal to
decay * avg + (1 - decay) * x in exact arithmetic, but x - avg cancels when avg and x differ in magnitude:
with decay 0 and avg 1e20, x 1.0 it leaves avg 0.0, not x ('updates avg in place to decay * avg + (1 - decay) * x')."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "fail", "fused": "pass", "triton": "pass"}
CELLS = {"ema_impl": edited("16-01", "ema_impl", (
    "        avg.mul_(decay).add_(x, alpha=1 - decay)\n",
    "        avg.add_(x - avg, alpha=1 - decay)\n"))}
