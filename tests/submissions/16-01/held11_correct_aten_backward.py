"""Held-out round 11, unusual but correct: the fused backward hands the recomputation of gelu'(x) to
PyTorch's own kernel, torch.ops.aten.gelu_backward(grad * keep / (1 - p), x, approximate="tanh") (still from
the saved x and boolean keep, nothing else saved); with p == 0 the all-true mask is
torch.ones_like(x, dtype=torch.bool) (on x's device, no draw); and the Triton kernel writes tanh(u) as
1 - 2 / (exp(2u) + 1), which saturates to +-1 without overflow trouble."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {
    "fused_impl": edited(
        "16-01", "fused_impl",
        ("    t = torch.tanh(_C * (x + 0.044715 * x ** 3))\n"
         "    d = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _C * (1 + 3 * 0.044715 * x * x)\n"
         "    return grad * keep / (1 - ctx.p) * d, None, None\n",
         "    return torch.ops.aten.gelu_backward(grad * keep / (1 - ctx.p), x, approximate=\"tanh\"), None, None\n"),
        ("        keep = torch.ones(x.shape, dtype=torch.bool, device=x.device)\n",
         "        keep = torch.ones_like(x, dtype=torch.bool)\n")),
    "triton_impl": edited(
        "16-01", "triton_impl",
        ("    t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0  # tanh(u)\n",
         "    t = 1.0 - 2.0 / (tl.exp(2.0 * u) + 1.0)  # tanh(u)\n")),
}
