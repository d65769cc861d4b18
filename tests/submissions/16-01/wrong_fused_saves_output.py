"""Also saves the output "in case the backward needs it": more bytes kept alive than x and the mask."""
from course.grading.class_run.submissions import edited

EXPECT = {"fused": "fail"}
CELLS = {"fused_impl": edited("16-01", "fused_impl",
                              ("    ctx.save_for_backward(x, keep)\n", "    ctx.save_for_backward(x, keep, output)\n"),
                              ("    x, keep = ctx.saved_tensors\n", "    x, keep, _ = ctx.saved_tensors\n"))}
