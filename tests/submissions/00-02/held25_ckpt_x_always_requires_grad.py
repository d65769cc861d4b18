"""Held-out round 25: backward always makes its detached copy of `x` require grad (`x.detach().requires_grad_()`)
and differentiates with respect to it, returning the result only where `x` needed it. Harmless for a float
batch, but a block fed with integer data (an `nn.Embedding` taking a batch of int64 token ids, which cannot
require grad) raises "only Tensors of floating point dtype can require gradients" in backward. The text: "`block`
is an `nn.Module` (without BatchNorm) called with one tensor" and "`x` may or may not require grad (a batch of data
does not); the parameters' gradients are right either way"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "00-02", "checkpoint_impl",
    ("            xd = x.detach().requires_grad_(ctx.needs_input_grad[1])\n",
     "            xd = x.detach().requires_grad_()\n"),
    ("        gx = next(grads) if xd.requires_grad else None\n",
     "        gx = next(grads)  # ignored by autograd where x needs no grad\n"))}
