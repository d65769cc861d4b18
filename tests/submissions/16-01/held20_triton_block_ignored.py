"""Round 20 (held out): the launcher ignores its block argument and always launches blocks of 1024
(grid triton.cdiv(n, 1024), BLOCK=1024): the values are right, but not 'a grid of triton.cdiv(n, block)
programs of block elements each (BLOCK=block)'."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "        gelu_dropout_kernel[(triton.cdiv(n, block),)](x, keep, out, n, 1.0 / (1.0 - p), BLOCK=block)\n",
    "        gelu_dropout_kernel[(triton.cdiv(n, 1024),)](x, keep, out, n, 1.0 / (1.0 - p), BLOCK=1024)\n"))}
