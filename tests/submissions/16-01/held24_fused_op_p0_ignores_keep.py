"""Round 24 (held out): the operator applies "with p == 0 ... returns gelu(x)" at its own level: for p == 0 it
returns F.gelu(x, approximate="tanh") and ignores keep. gelu_dropout is right (with p == 0 it passes an all-true
mask), but the operator c1601::gelu_dropout_op(x, keep, 0.0) with a keep holding False returns gelu(x) where
gelu(x) * keep / (1 - 0) is 0, against "returns gelu(x) * keep / (1 - p)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    '    return F.gelu(x, approximate="tanh") * keep / (1 - p)\n',
    '    if p == 0:\n'
    '        return F.gelu(x, approximate="tanh")\n'
    '    return F.gelu(x, approximate="tanh") * keep / (1 - p)\n'))}
