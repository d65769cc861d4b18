"""Held-out round 11: launch_gelu_dropout ignores its block argument and always launches
triton.cdiv(n, 1024) programs of BLOCK=1024. The values are right for every block asked for (the kernel
masks at n), but the launch is not the one asked for: launch_gelu_dropout(x, keep, p, block=128) on 700
elements runs 1 program instead of 6. The text says it runs the kernel "on a grid of triton.cdiv(n, block)
programs", and program i handles "the elements i * BLOCK to i * BLOCK + BLOCK - 1"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited(
    "16-01", "triton_impl",
    ("gelu_dropout_kernel[(triton.cdiv(n, block),)](x, keep, out, n, 1.0 / (1.0 - p), BLOCK=block)",
     "gelu_dropout_kernel[(triton.cdiv(n, 1024),)](x, keep, out, n, 1.0 / (1.0 - p), BLOCK=1024)"))}
