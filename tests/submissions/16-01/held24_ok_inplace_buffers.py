"""Round 24 (held out), correct but unusual: smooth_clip writes into its own torch.empty_like(x) buffer with
out= and in-place tanh_/mul_; the backward uses the factored derivative (1 - y/c)(1 + y/c); ema_ is one
torch.add(..., out=avg) through avg's own strides; gelu_dropout builds the mask with an in-place u.ge_(p) turned
to bool, and the all-true mask at p == 0 with x.new_ones. Every task must pass."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {
    "clip_impl": edited("16-01", "clip_impl", (
        "    return limit * torch.tanh(x / limit)\n",
        "    out = torch.empty_like(x)\n"
        "    torch.div(x, limit, out=out)\n"
        "    return out.tanh_().mul_(limit)\n")),
    "grad_impl": edited("16-01", "grad_impl", (
        "    return grad * (1 - (y / ctx.limit) ** 2), None\n",
        "    r = y / ctx.limit\n"
        "    return grad * (1 - r) * (1 + r), None\n")),
    "ema_impl": edited("16-01", "ema_impl", (
        "        avg.mul_(decay).add_(x, alpha=1 - decay)\n",
        "        torch.add(avg * decay, x, alpha=1 - decay, out=avg)\n")),
    "fused_impl": edited("16-01", "fused_impl", (
        "        keep = torch.ones(x.shape, dtype=torch.bool, device=x.device)\n",
        "        keep = x.new_ones(x.shape, dtype=torch.bool)\n"), (
        "        keep = u >= p\n",
        "        keep = u.ge_(p).bool()\n")),
}
