"""Round 14 (held out): gelu_dropout draws the mask right but computes F.gelu(x) * keep / (1 - p) itself
instead of returning the operator's result: same values, same gradient, same saved bytes (x and the bool
mask), but not one operator (torch.compile sees gelu, mul, div)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    return gelu_dropout_op(x, keep, p)\n",
    "    return F.gelu(x, approximate=\"tanh\") * keep / (1 - p)\n"))}
