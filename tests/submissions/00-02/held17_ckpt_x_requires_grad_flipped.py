"""Held-out round 17: backward recomputes from the saved `x` itself, turned on with `x.requires_grad_(True)`
instead of a detached copy. The saved input is the caller's tensor, so a batch of data that did not require
grad requires grad after `loss.backward()` (and the gradients are all right). The text: "`x` may or may not
require grad ...; the parameters' gradients are right either way, and `x` itself is left as it was (its
values, and whether it requires grad)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "00-02", "checkpoint_impl",
    ("            xd = x.detach().requires_grad_(ctx.needs_input_grad[1])\n",
     "            # the recomputation needs an input that requires grad\n"
     "            xd = x.detach().requires_grad_(True) if x.requires_grad else x.requires_grad_(True)\n"))}
