"""Round 17 (held out): the dropout scale precomputed as keep / (1 - p), a tensor of the default dtype
(float32): for float64 x the result carries a float32-rounded 1 / (1 - p) (relative error up to 6e-8), against
'returns gelu(x) * keep / (1 - p) ... in x's dtype' and 'equals the unfused composition' in float64."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    return F.gelu(x, approximate=\"tanh\") * keep / (1 - p)\n",
    "    scale = keep / (1 - p)  # the dropout mask, pre-scaled\n"
    "    return F.gelu(x, approximate=\"tanh\") * scale\n"))}
