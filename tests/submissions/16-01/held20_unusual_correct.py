"""Round 20 (held out), correct: gelu_dropout draws the mask as a flat torch.rand(x.numel()) reshaped to
x's shape (the same stream as torch.rand(x.shape)), builds the p == 0 mask with x.new_ones, calls the
operator through torch.ops, and the backward writes gelu'(x) with square() and 3 * 0.044715 folded."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    d = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _C * (1 + 3 * 0.044715 * x * x)\n"
    "    return grad * keep / (1 - ctx.p) * d, None, None\n",
    "    d = 0.5 * (1 + t) + 0.5 * x * (1 - t.square()) * _C * (1 + 0.134145 * x.square())\n"
    "    return grad.mul(keep).div(1 - ctx.p).mul(d), None, None\n"), (
    "    if p == 0:\n"
    "        keep = torch.ones(x.shape, dtype=torch.bool, device=x.device)\n"
    "    else:\n"
    "        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n"
    "        keep = u >= p\n"
    "    return gelu_dropout_op(x, keep, p)\n",
    "    if not p:\n"
    "        keep = x.new_ones(x.shape, dtype=torch.bool)\n"
    "    else:\n"
    "        flat = torch.rand(x.numel(), generator=generator, dtype=x.dtype, device=x.device)\n"
    "        keep = flat.reshape(x.shape).ge(p)\n"
    "    return torch.ops.c1601.gelu_dropout_op(x, keep, float(p))\n"))}
