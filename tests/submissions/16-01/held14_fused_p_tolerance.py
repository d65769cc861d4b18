"""Round 14 (held out): compares p with 0 with a float tolerance, `abs(p) < 1e-12`: for 0 < p < 1e-12 it
draws nothing (the generator's state is left alone) although the text says only p == 0 draws nothing."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    if p == 0:\n",
    "    if abs(p) < 1e-12:\n"))}
