"""Round 17 (held out): an early return for an input with no element, built with torch.empty(x.shape,
dtype=x.dtype) and no device=: on a GPU the empty result lands on the CPU, against 'a new tensor with x's
shape, dtype and device'."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    "    return limit * torch.tanh(x / limit)\n",
    "    if x.numel() == 0:\n"
    "        return torch.empty(x.shape, dtype=x.dtype)\n"
    "    return limit * torch.tanh(x / limit)\n"))}
