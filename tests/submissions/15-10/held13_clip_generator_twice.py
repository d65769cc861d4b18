"""Held-out round 13: the norm pass and the scaling pass each iterate `parameters`. With a list both
see every tensor; with a generator (`model.parameters()`, `p for p in ... if p.requires_grad`) the
first pass consumes it, the scaling loop sees nothing, and no gradient is clipped although the norm is
returned. The docstring: "parameters: an iterable of tensors"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "fail"}
CELLS = {"clip_impl": edited(
    "15-10", "clip_impl",
    ("        for g in grads:\n            g.mul_(coef.to(device=g.device, dtype=g.dtype))",
     "        for p in parameters:\n            if p.grad is not None:\n"
     "                p.grad.mul_(coef.to(device=p.grad.device, dtype=p.grad.dtype))"))}
