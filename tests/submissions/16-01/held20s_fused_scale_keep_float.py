"""Round 20 contract walk (not counted): the operator multiplies by a float mask scaled first,
F.gelu(x) * (keep.to(x.dtype) / (1 - p)): the same as gelu(x) * keep / (1 - p) for finite gelu(x), and for a
dropped element 0 even at the top of the range (gelu(x) * 0): the new large-input check must let it pass."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    return F.gelu(x, approximate=\"tanh\") * keep / (1 - p)\n",
    "    return F.gelu(x, approximate=\"tanh\") * (keep.to(x.dtype) / (1 - p))\n"))}
