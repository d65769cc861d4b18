"""Forgets to divide the kept values by 1 - p (the expected activation shrinks by 1 - p)."""
from course.grading.class_run.submissions import edited

EXPECT = {"fused": "fail"}
CELLS = {"fused_impl": edited("16-01", "fused_impl",
                              ('    return F.gelu(x, approximate="tanh") * keep / (1 - p)\n', '    return F.gelu(x, approximate="tanh") * keep\n'),
                              ("return grad * keep / (1 - ctx.p) * d, None, None", "return grad * keep * d, None, None"))}
