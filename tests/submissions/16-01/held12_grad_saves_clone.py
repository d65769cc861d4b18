"""Wrong: "setup_context saves only the output y with ctx.save_for_backward" (the output "exists anyway
for the next layer, so saving it costs nothing extra"). This one saves output.clone(): values, gradients
and second derivatives are right (the clone stays in the graph), but autograd keeps a second copy of the
output alive until backward, the memory the section says the choice saves."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad": "fail"}
CELLS = {"grad_impl": edited(
    "16-01", "grad_impl",
    ("    ctx.save_for_backward(output)\n", "    ctx.save_for_backward(output.clone())\n"))}
