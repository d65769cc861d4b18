"""Round 12 (held out): backward calls requires_grad_() on the saved x itself instead of a detached copy:
the caller's batch (which did not require grad) requires grad after backward, and the next computation
with it records a graph. (The text says x "may or may not require grad"; it does not say in words that
x is left as it was: see the report.)"""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited("00-02", "checkpoint_impl", (
    "            xd = x.detach().requires_grad_(ctx.needs_input_grad[1])\n",
    "            xd = x if x.requires_grad else x.requires_grad_(True)\n"),
    ("        gx = next(grads) if xd.requires_grad else None\n",
     "        gx = next(grads) if xd.requires_grad else None\n"
     "        gx = gx if ctx.needs_input_grad[1] else None\n"))}
