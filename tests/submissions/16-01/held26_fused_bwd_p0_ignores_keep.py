"""Round 26 (held out): the backward takes a shortcut for p == 0 ("no dropout, nothing to mask") and returns
grad * gelu'(x), ignoring keep. Through gelu_dropout that is right (p == 0 passes an all-true keep), but the operator
itself is called with any boolean keep: torch.ops.c1601.gelu_dropout_op(x, keep, 0.0) with keep false somewhere gives
those elements the gradient gelu'(x) instead of 0. Breaks "Its autograd formula gives x the gradient
grad * keep / (1 - p) * gelu'(x)" together with "(with p == 0 too: 0 where keep is false)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    return grad * keep / (1 - ctx.p) * d, None, None\n",
    "    if ctx.p == 0:  # no dropout: nothing to mask\n"
    "        return grad * d, None, None\n"
    "    return grad * keep / (1 - ctx.p) * d, None, None\n"))}
