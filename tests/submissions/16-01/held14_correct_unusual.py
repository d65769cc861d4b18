"""Round 14 (held out): correct, written unusually: tanh(x / limit) scaled in place; the clip gradient as
(1 - y/limit)(1 + y/limit); ema_ with lerp_; the fused backward differentiates a recomputed GELU with
torch.autograd.grad; the draw through empty(...).uniform_ and the mask as ~(u < p); a kernel whose tanh is
1 - 2 / (1 + exp(2u))."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {
    "clip_impl": edited("16-01", "clip_impl", (
        "    return limit * torch.tanh(x / limit)\n",
        "    return torch.tanh(torch.div(x, limit)).mul_(limit)\n")),
    "grad_impl": edited("16-01", "grad_impl", (
        "    _, limit = inputs\n    ctx.limit = limit\n",
        "    ctx.limit = inputs[1]\n"), (
        "    return grad * (1 - (y / ctx.limit) ** 2), None\n",
        "    r = y / ctx.limit\n    return grad * ((1 - r) * (1 + r)), None\n")),
    "ema_impl": edited("16-01", "ema_impl", (
        "        avg.mul_(decay).add_(x, alpha=1 - decay)\n",
        "        avg.lerp_(x, 1 - decay)\n")),
    "fused_impl": edited("16-01", "fused_impl", (
        "    t = torch.tanh(_C * (x + 0.044715 * x ** 3))\n"
        "    d = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _C * (1 + 3 * 0.044715 * x * x)\n"
        "    return grad * keep / (1 - ctx.p) * d, None, None\n",
        "    with torch.enable_grad():\n"
        "        xx = x.detach().requires_grad_(True)\n"
        "        (gx,) = torch.autograd.grad(F.gelu(xx, approximate=\"tanh\"), xx, grad * keep / (1 - ctx.p))\n"
        "    return gx, None, None\n"), (
        "        keep = torch.ones(x.shape, dtype=torch.bool, device=x.device)\n",
        "        keep = x.new_ones(x.shape, dtype=torch.bool)\n"), (
        "        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n"
        "        keep = u >= p\n",
        "        u = torch.empty(x.shape, dtype=x.dtype, device=x.device).uniform_(0, 1, generator=generator)\n"
        "        keep = ~(u < p)\n")),
    "triton_impl": edited("16-01", "triton_impl", (
        "    t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0  # tanh(u)\n",
        "    t = 1.0 - 2.0 / (1.0 + tl.exp(2.0 * u))  # tanh(u)\n")),
}
