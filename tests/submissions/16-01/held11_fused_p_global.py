"""Held-out round 11: the fused setup_context stores p in a module global (_LAST_P) instead of on ctx, and
the backward divides by 1 - _LAST_P. One forward followed by its backward is right; but with two outputs
built with different p (two dropout layers) before one backward, the first one's gradient uses the second
one's p. The text says the autograd formula gives x the gradient grad * keep / (1 - p) * gelu'(x), p being
that call's p, and that gelu_dropout(x, p, g) equals the unfused composition "in value and in gradient"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited(
    "16-01", "fused_impl",
    ("    ctx.p = p\n", "    global _LAST_P\n    _LAST_P = p\n"),
    ("    return grad * keep / (1 - ctx.p) * d, None, None\n",
     "    return grad * keep / (1 - _LAST_P) * d, None, None\n"))}
