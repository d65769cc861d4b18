"""Round 17 (held out): the launch passes BLOCK=1024 whatever block is: the grid is triton.cdiv(n, block)
programs of 1024 elements each, so for block > 1024 the programs cover only grid * 1024 elements and the tail
of the output is never written, against 'program i handles the elements i * BLOCK to ...' on 'a grid of
triton.cdiv(n, block) programs'."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "1.0 / (1.0 - p), BLOCK=block)",
    "1.0 / (1.0 - p), BLOCK=1024)"))}
