"""Round 20 (held out): the operator scales before masking, F.gelu(x) / (1 - p) * keep: for a large finite
x whose gelu(x) / (1 - p) overflows, a dropped element gives inf * 0 = NaN where gelu(x) * keep / (1 - p)
is 0."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    return F.gelu(x, approximate=\"tanh\") * keep / (1 - p)\n",
    "    return F.gelu(x, approximate=\"tanh\") / (1 - p) * keep\n"))}
