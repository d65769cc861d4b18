"""Correct, written unusually: the clip through aten overloads and an in-place scale of its own fresh
result; the clip's derivative factored as (1 - r)(1 + r); the EMA as avg.lerp_; the fused forward with
masked_fill and a division; the fused backward with torch.where; the Triton kernel's GELU through the
identity 0.5 * (1 + tanh(u)) = 1 / (1 + exp(-2u)), without forming tanh."""
from course.grading.class_run.submissions import edited

CELLS = {
    "clip_impl": edited(
        "16-01", "clip_impl",
        ("    return limit * torch.tanh(x / limit)\n",
         "    return torch.ops.aten.tanh.default(torch.ops.aten.div.Tensor(x, limit)).mul_(limit)\n")),
    "grad_impl": edited(
        "16-01", "grad_impl",
        ("    return grad * (1 - (y / ctx.limit) ** 2), None\n",
         "    r = y / ctx.limit\n    return grad * ((1 - r) * (1 + r)), None\n")),
    "ema_impl": edited(
        "16-01", "ema_impl",
        ("        avg.mul_(decay).add_(x, alpha=1 - decay)\n", "        avg.lerp_(x.expand_as(avg), 1 - decay)\n")),
    "fused_impl": edited(
        "16-01", "fused_impl",
        ("    return F.gelu(x, approximate=\"tanh\") * keep / (1 - p)\n",
         "    return F.gelu(x, approximate=\"tanh\").masked_fill(~keep, 0).div(1 - p)\n"),
        ("    return grad * keep / (1 - ctx.p) * d, None, None\n",
         "    return torch.where(keep, grad * d / (1 - ctx.p), torch.zeros((), dtype=grad.dtype, device=grad.device)), None, None\n")),
    "triton_impl": edited(
        "16-01", "triton_impl",
        ("    t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0  # tanh(u)\n    y = 0.5 * x * (1.0 + t)\n",
         "    y = x / (1.0 + tl.exp(-2.0 * u))  # 0.5 * x * (1 + tanh(u))\n")),
}
