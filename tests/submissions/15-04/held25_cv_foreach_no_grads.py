"""Held-out round 25: the clamp is done with torch._foreach_clamp_min_ / _foreach_clamp_max_ on the list of
existing gradients (as clip_grad_value_ does inside, but without its grouping). When no parameter has a
.grad (a frozen model, an empty list, a single tensor without .grad) the list is empty and the foreach op
raises "Tensor list must have at least one tensor", where clip_grad_value_ does nothing. The text: "skip
parameters without `.grad`" and "Same semantics as torch.nn.utils.clip_grad_value_"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_value": "fail"}
CELLS = {"clip_value_impl": edited(
    "15-04", "clip_value_impl",
    ("    for p in parameters:\n"
     "        if p.grad is not None:\n"
     "            p.grad.detach().clamp_(min=-clip_value, max=clip_value)\n",
     "    grads = [p.grad.detach() for p in parameters if p.grad is not None]\n"
     "    torch._foreach_clamp_min_(grads, -clip_value)\n"
     "    torch._foreach_clamp_max_(grads, clip_value)\n"))}
