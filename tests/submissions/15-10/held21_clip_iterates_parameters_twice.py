"""Wrong (held-out round 21): clip_grad_norm walks `parameters` once to collect the gradients and a second
time to rescale them. Given a list that works; given a generator (model.parameters(), the usual argument, and
"parameters: an iterable of tensors" in the docstring) the second walk finds nothing, so the norm is returned
but no gradient is clipped. Contradicts "an iterable of tensors" and "Clip the gradients ... in place"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "fail"}
CELLS = {"clip_impl": edited(
    "15-10", "clip_impl",
    ("        for g in grads:\n            g.mul_(coef.to(device=g.device, dtype=g.dtype))\n",
     "        for p in parameters:\n"
     "            if p.grad is not None:\n"
     "                p.grad.mul_(coef.to(device=p.grad.device, dtype=p.grad.dtype))\n"))}
