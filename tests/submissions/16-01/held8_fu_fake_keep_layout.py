"""Wrong (held-out round 8): the fake kernel of gelu_dropout_op returns torch.empty_like(keep, dtype=x.dtype):
keep's layout, not x's. For a transposed x with a contiguous keep the fake output is contiguous while the
real one is transposed. Breaks "as a new tensor laid out like `torch.empty_like(x)`, and its fake kernel
gives that metadata without data" (Exercise 4, first bullet)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "def _(x, keep, p):\n    ### BEGIN SOLUTION\n    return torch.empty_like(x)\n",
    "def _(x, keep, p):\n    ### BEGIN SOLUTION\n    return torch.empty_like(keep, dtype=x.dtype)\n"))}
