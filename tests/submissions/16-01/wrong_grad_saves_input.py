"""Saves x and recomputes tanh in the backward: right values, but x is kept alive instead of the output."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad": "fail"}
CELLS = {"grad_impl": edited("16-01", "grad_impl",
                             ("    _, limit = inputs\n", "    x, limit = inputs\n"),
                             ("ctx.save_for_backward(output)", "ctx.save_for_backward(x)"),
                             ("    (y,) = ctx.saved_tensors\n", "    (x,) = ctx.saved_tensors\n    y = ctx.limit * torch.tanh(x / ctx.limit)\n"))}
