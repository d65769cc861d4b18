"""Wrong (held-out round 8): launch_gelu_dropout launches one program per element, grid (n,), as a CUDA thread
grid would be sized; programs past cdiv(n, block) are fully masked, so the result is right, but n programs
run where cdiv(n, block) suffice. Breaks "runs it ... on a grid of `triton.cdiv(n, block)` programs"
(Exercise 5, second bullet)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "gelu_dropout_kernel[(triton.cdiv(n, block),)]", "gelu_dropout_kernel[(n,)]"))}
