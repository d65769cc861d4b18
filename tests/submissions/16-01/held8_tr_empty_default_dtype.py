"""Wrong (held-out round 8): with no element, launch_gelu_dropout returns torch.empty(x.shape, device=x.device),
which has the default dtype (float32) whatever x's dtype: an empty float64 x gets a float32 result. Breaks
"returns a new tensor of `x`'s shape and dtype; when `x` has no element it launches nothing" (Exercise 5,
second bullet)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    n = x.numel()\n",
    "    n = x.numel()\n    if n == 0:\n        return torch.empty(x.shape, device=x.device)\n"))}
