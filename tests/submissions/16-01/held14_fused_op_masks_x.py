"""Round 14 (held out): the operator zeroes the dropped elements of x in place before the GELU (they are
multiplied by 0 anyway): values and gradient are right, but the functional operator (mutates_args=())
writes into its argument x, which the caller sees changed."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    return F.gelu(x, approximate=\"tanh\") * keep / (1 - p)\n",
    "    x.masked_fill_(~keep, 0.0)\n"
    "    return F.gelu(x, approximate=\"tanh\") * keep / (1 - p)\n"))}
