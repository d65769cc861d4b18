"""Wrong (held-out round 8): setup_context saves keep converted to uint8 (keep.to(torch.uint8)): still one
byte per element and the backward's values are right, but it saves a new tensor of another dtype, not the
boolean mask. Breaks "For the backward it saves only `x` and the boolean `keep`" (Exercise 4, third
bullet)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    ctx.save_for_backward(x, keep)\n", "    ctx.save_for_backward(x, keep.to(torch.uint8))\n"))}
