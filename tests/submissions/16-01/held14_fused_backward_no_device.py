"""Round 14 (held out): the backward builds its 1 + tanh(u) from torch.ones(x.shape, dtype=x.dtype), made
without device=: right on the CPU, but on a GPU the backward mixes a CPU tensor into CUDA ones and raises."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    d = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _C * (1 + 3 * 0.044715 * x * x)\n",
    "    one = torch.ones(x.shape, dtype=x.dtype)\n"
    "    d = 0.5 * (one + t) + 0.5 * x * (one - t * t) * _C * (one + 3 * 0.044715 * x * x)\n"))}
