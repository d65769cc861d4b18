"""Round 26 (held out), correct but unusual: the Triton kernel writes GELU through the logistic function,
gelu(x) = 0.5 x (1 + tanh u) = x / (1 + exp(-2u)), with no explicit tanh, and the launcher flattens: it runs the kernel
on x.contiguous().view(-1) and keep.contiguous().view(-1) (copies only when needed), writes into a fresh flat buffer
made like the flat x, and returns it viewed as x's shape. For large positive u, exp(-2u) = 0 gives x; for large
negative u (x**3 overflowing included), exp(-2u) = inf gives x / inf = -0; 0-dim x becomes one element and back; an
empty x launches nothing."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0  # tanh(u)\n"
    "    y = 0.5 * x * (1.0 + t)\n",
    "    y = x / (1.0 + tl.exp(-2.0 * u))  # 0.5 x (1 + tanh u) = x sigmoid(2u)\n"), (
    "    x, keep = x.contiguous(), keep.contiguous()\n"
    "    out = torch.empty_like(x)\n"
    "    n = x.numel()\n"
    "    if n:\n"
    "        gelu_dropout_kernel[(triton.cdiv(n, block),)](x, keep, out, n, 1.0 / (1.0 - p), BLOCK=block)\n"
    "    return out\n",
    "    xf, kf = x.contiguous().view(-1), keep.contiguous().view(-1)\n"
    "    out = torch.empty_like(xf)\n"
    "    n = xf.numel()\n"
    "    if n > 0:\n"
    "        gelu_dropout_kernel[(triton.cdiv(n, block),)](xf, kf, out, n, 1.0 / (1.0 - p), BLOCK=block)\n"
    "    return out.view(x.shape)\n"))}
