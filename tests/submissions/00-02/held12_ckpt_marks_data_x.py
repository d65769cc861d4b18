"""Round 12 (held out, written after the count as the sharper form of held12_ckpt_marks_x): backward recomputes
from the saved x itself when it did not require grad, calling requires_grad_() on it: the caller's batch of
data requires grad after backward ("x itself is left as it was"); an x that requires grad is detached as it
should be, so every value and gradient is right."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited("00-02", "checkpoint_impl", (
    "            xd = x.detach().requires_grad_(ctx.needs_input_grad[1])\n",
    "            xd = x.detach().requires_grad_() if x.requires_grad else x.requires_grad_(True)\n"),
    ("        gx = next(grads) if xd.requires_grad else None\n",
     "        gx = next(grads) if xd.requires_grad else None\n"
     "        gx = gx if ctx.needs_input_grad[1] else None\n"))}
