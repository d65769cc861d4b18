"""Wrong (held-out round 28): backward returns `grad_out.contiguous().mul_(torch.sigmoid(x))`: for a
contiguous incoming gradient `.contiguous()` is the same tensor, so the caller's gradient is overwritten in place
(a `grad_outputs` tensor passed to `torch.autograd.grad`, or a gradient buffer autograd hands to several nodes).
The text: "a backward that returns `grad_out * sigmoid(x)`", a new tensor, as F.softplus's backward does; it
never modifies its incoming gradient. Goes wrong on torch.autograd.grad(StableSoftplus.apply(x), x, g) with g a
contiguous tensor: the returned gradient is right but g afterwards holds g * sigmoid(x) instead of its old values
(an expanded gradient such as the one from `.sum()` is copied first). Caught before round 28's changes only by
test_softplus_gradcheck_property (as a disagreement with finite differences); now also by
test_softplus_leaves_incoming_gradient_alone."""
from course.grading.class_run.submissions import edited

EXPECT = {"softplus": "fail"}
CELLS = {"softplus_impl": edited("15-01", "softplus_impl", (
    "        return grad_out * torch.sigmoid(x)\n",
    "        return grad_out.contiguous().mul_(torch.sigmoid(x))\n"))}
