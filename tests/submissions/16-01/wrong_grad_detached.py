"""Saves a detached output: first derivatives are right, the backward is no longer differentiable in x."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad": "fail"}
CELLS = {"grad_impl": edited("16-01", "grad_impl", ("ctx.save_for_backward(output)", "ctx.save_for_backward(output.detach())"))}
