"""Known-wrong clip_grad_norm (gap round): leaves out parameters with requires_grad=False even when they have
a .grad; clip_grad_norm_ counts and scales every parameter whose .grad is not None."""
from course.grading.class_run.submissions import edited

CELLS = {"clip_norm_impl": edited("15-04", "clip_norm_impl",
    ("    grads = [p.grad for p in parameters if p.grad is not None]",
     "    grads = [p.grad for p in parameters if p.requires_grad and p.grad is not None]"))}
EXPECT = {"clip_grad_norm": "fail"}
