"""Round 20 (held out): the grid is n // block + 1 programs instead of triton.cdiv(n, block): when n is a
multiple of block one program too many is launched (fully masked, so the values are right), against 'on a
grid of triton.cdiv(n, block) programs'."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "        gelu_dropout_kernel[(triton.cdiv(n, block),)](x, keep, out, n, 1.0 / (1.0 - p), BLOCK=block)\n",
    "        gelu_dropout_kernel[(n // block + 1,)](x, keep, out, n, 1.0 / (1.0 - p), BLOCK=block)\n"))}
