"""Round 26 (held out): StableSoftplus keeps its input as an attribute, ctx.x = x, instead of saving it with
ctx.save_for_backward.

Breaks the notebook's rule for Functions ("forward ... may stash whatever backward needs on ctx: tensors through
ctx.save_for_backward(...), anything else as attributes"; "Saved tensors are checked on use: if anyone modified
them in place after forward, backward raises instead of silently using the wrong values") together with
Exercise 2's "It must match F.softplus". Goes wrong when x is changed in place between forward and backward:
h = w * 1; y = StableSoftplus.apply(h); h.add_(5.0); y.sum().backward() raises the version-counter
RuntimeError with F.softplus (which saves its input), while this version silently returns
sigmoid(h + 5) instead of sigmoid(h). Values and gradients are otherwise exactly the reference's."""
from course.grading.class_run.submissions import edited

EXPECT = {"softplus": "fail"}
CELLS = {"softplus_impl": edited("15-01", "softplus_impl", (
    "        ctx.save_for_backward(x)\n        return torch.clamp",
    "        ctx.x = x\n        return torch.clamp"), (
    "        (x,) = ctx.saved_tensors\n        return grad_out * torch.sigmoid(x)",
    "        return grad_out * torch.sigmoid(ctx.x)"))}
