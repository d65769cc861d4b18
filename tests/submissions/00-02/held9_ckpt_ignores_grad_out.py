"""Held-out round 9: Checkpoint.backward differentiates out.sum() instead of out weighted by grad_out, so
the gradients are right only when the loss is the plain sum of the block's output; the text says the
gradients match those of a plain block(x), whatever loss follows."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "00-02", "checkpoint_impl",
    ("torch.autograd.grad(out, wrt, grad_out, allow_unused=True)",
     "torch.autograd.grad(out.sum(), wrt, allow_unused=True)"))}
