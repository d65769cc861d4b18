"""Round 29 (held out): the kernel adds first and scales once at the end, avg <- decay * (avg + x * (1 - decay) /
decay) (decay == 0 handled by copy_). Mathematically the same, but the intermediate avg + x (1 - decay) / decay
overflows long before the result does. Breaks "updates avg in place to decay * avg + (1 - decay) * x, for float32 and
float64 tensors whose difference x - avg stays finite": float32 avg = x = 3e38 with decay 0.5 gives inf instead of
3e38 (and avg = x = 1e37 with decay 0.01 gives inf instead of 1e37)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "fail", "fused": "pass", "triton": "pass"}
CELLS = {"ema_impl": edited("16-01", "ema_impl", (
    "        avg.mul_(decay).add_(x, alpha=1 - decay)\n",
    "        if decay == 0:\n"
    "            avg.copy_(x)\n"
    "        else:\n"
    "            avg.add_(x, alpha=(1 - decay) / decay).mul_(decay)  # one scaling at the end\n"))}
