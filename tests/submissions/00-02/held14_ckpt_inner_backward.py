"""Held-out round 14: backward calls `out.backward(grad_out)` on the recomputed block, so the parameters'
`.grad` fill themselves, and returns None for every parameter. `loss.backward()` leaves the right `.grad`, but
`torch.autograd.grad(loss, params)` gets no gradient for them (and writes into `.grad` behind the caller's
back). The text: "Backward ... returns the gradients of `x` and of every parameter"."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "00-02", "checkpoint_impl",
    ("            wrt = ([xd] if xd.requires_grad else []) + [p for p in params if p.requires_grad]\n"
     "            grads = iter(torch.autograd.grad(out, wrt, grad_out, allow_unused=True))\n"
     "        gx = next(grads) if xd.requires_grad else None\n"
     "        return (None, gx, *[next(grads) if p.requires_grad else None for p in params])",
     "            out.backward(grad_out)\n"
     "        gx = xd.grad if xd.requires_grad else None\n"
     "        return (None, gx, *[None for p in params])"))}
