"""Round 24 (held out): setup_context saves output.contiguous() "so that the backward reads contiguous memory".
For a contiguous x that is the output itself; for a transposed x (whose output is transposed, like
torch.empty_like(x)) it is a new copy of y, kept alive until the backward: an extra tensor of y's size, against
"setup_context saves only the output y with ctx.save_for_backward (not x)" (the output costs nothing extra to
keep, a copy does). Wrong on x = torch.randn(4, 5).t()."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "fail", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"grad_impl": edited("16-01", "grad_impl", (
    "    ctx.save_for_backward(output)\n",
    "    ctx.save_for_backward(output.contiguous())\n"))}
