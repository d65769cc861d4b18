"""Wrong: "The gradient with respect to x is grad * (1 - (y / limit)**2)". This backward saves an
allocation by scaling the incoming gradient in place (grad.mul_) and returning it. Autograd may hand the
same gradient tensor to several consumers (an add's backward returns one tensor for both operands, and a
caller's grad_outputs tensor is passed through), so a second consumer, or the caller, then sees the scaled
values: smooth_clip(x, a) + smooth_clip(x, b) gets a wrong gradient for x."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad": "fail"}
CELLS = {"grad_impl": edited(
    "16-01", "grad_impl",
    ("    return grad * (1 - (y / ctx.limit) ** 2), None\n",
     "    return grad.mul_(1 - (y / ctx.limit) ** 2), None\n"))}
