"""Round 29 (held out): gelu_dropout skips the draw at p == 0 only when a generator is given; with
generator=None it still draws u from the global generator (u >= 0 keeps everything, so the value is right).
Breaks "With p == 0 it draws nothing (the generator's state is left alone)": torch.manual_seed(0);
gelu_dropout(x, 0.0); torch.rand(3) differs from torch.manual_seed(0); torch.rand(3), the global generator
advanced by x.numel() draws."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    if p == 0:\n",
    "    if p == 0 and generator is not None:  # a given generator must not move\n"))}
