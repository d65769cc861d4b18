"""Round 29 (held out), correct but unusual: smooth_clip scales a fresh tanh in place (torch.tanh(x / limit).mul_(
limit)); the backward factors 1 - (y/c)**2 as (1 - y/c)(1 + y/c) (no square, still differentiable); ema_ is
avg.lerp_(x, 1 - decay) (exact at both ends: weight 0 gives avg, weight 1 gives x); gelu_dropout at p == 0 passes an
expanded one-element True mask (x's shape, stride 0, on x's device, drawn nothing); the Triton kernel zeroes the
dropped lanes before scaling (tl.where(keep, y, 0) * scale)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {
    "clip_impl": edited("16-01", "clip_impl", (
        "    return limit * torch.tanh(x / limit)\n",
        "    return torch.tanh(x / limit).mul_(limit)\n")),
    "grad_impl": edited("16-01", "grad_impl", (
        "    return grad * (1 - (y / ctx.limit) ** 2), None\n",
        "    r = y / ctx.limit\n"
        "    return grad * (1 - r) * (1 + r), None\n")),
    "ema_impl": edited("16-01", "ema_impl", (
        "        avg.mul_(decay).add_(x, alpha=1 - decay)\n",
        "        avg.lerp_(x, 1 - decay)\n")),
    "fused_impl": edited("16-01", "fused_impl", (
        "        keep = torch.ones(x.shape, dtype=torch.bool, device=x.device)\n",
        "        keep = torch.ones((), dtype=torch.bool, device=x.device).expand(x.shape)\n")),
    "triton_impl": edited("16-01", "triton_impl", (
        "    tl.store(out_ptr + offs, tl.where(keep != 0, y * scale, 0.0), mask=inside)\n",
        "    tl.store(out_ptr + offs, tl.where(keep != 0, y, 0.0) * scale, mask=inside)\n")),
}
