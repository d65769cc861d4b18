"""Wrong (held-out round 8): launch_gelu_dropout ignores its block argument and always launches BLOCK=1024 on
cdiv(n, 1024) programs; the result is right, but launch_gelu_dropout(x, keep, p, block=128) does not run
blocks of 128. Breaks "`launch_gelu_dropout(x, keep, p, block=1024)` runs it ... on a grid of
`triton.cdiv(n, block)` programs" (Exercise 5, second bullet; the kernel's BLOCK is block)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "gelu_dropout_kernel[(triton.cdiv(n, block),)](x, keep, out, n, 1.0 / (1.0 - p), BLOCK=block)",
    "gelu_dropout_kernel[(triton.cdiv(n, 1024),)](x, keep, out, n, 1.0 / (1.0 - p), BLOCK=1024)"))}
