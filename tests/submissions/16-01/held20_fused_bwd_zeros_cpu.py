"""Round 20 (held out): the backward writes the dropped elements' gradient with
torch.where(keep, ..., torch.zeros(x.shape, dtype=x.dtype)), a zeros tensor built without device=: on a
GPU (or meta) the backward mixes devices and raises, against 'every tensor it creates, in the forward and
in the backward, is on x's device'."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    return grad * keep / (1 - ctx.p) * d, None, None\n",
    "    return torch.where(keep, grad * d / (1 - ctx.p), torch.zeros(x.shape, dtype=x.dtype)), None, None\n"))}
