"""Known-wrong clip_grad_value (gap round): skips parameters with requires_grad=False that still have a .grad;
clip_grad_value_ clamps every existing .grad."""
from course.grading.class_run.submissions import edited

CELLS = {"clip_value_impl": edited("15-04", "clip_value_impl",
    ("        if p.grad is not None:", "        if p.requires_grad and p.grad is not None:"))}
EXPECT = {"clip_grad_value": "fail"}
