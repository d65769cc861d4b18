"""Held-out round 20: backward makes the saved x differentiable in place (`x.requires_grad_()`) when it does
not require grad, instead of working on a detached alias. The saved tensor is the caller's own x, so after
backward a batch of data that did not require grad now does. The gradients are right. The text: "`x` may or
may not require grad ...; the parameters' gradients are right either way, and `x` itself is left as it was
(its values, and whether it requires grad)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "00-02", "checkpoint_impl",
    ("            xd = x.detach().requires_grad_(ctx.needs_input_grad[1])\n",
     "            xd = x if x.requires_grad else x.requires_grad_()\n"),
    ("            wrt = ([xd] if xd.requires_grad else []) + [p for p in params if p.requires_grad]\n",
     "            wrt = ([xd] if ctx.needs_input_grad[1] else []) + [p for p in params if p.requires_grad]\n"),
    ("        gx = next(grads) if xd.requires_grad else None\n",
     "        gx = next(grads) if ctx.needs_input_grad[1] else None\n"))}
