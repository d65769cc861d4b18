"""Held-out round 13: setup_context saves x and the output, and both formulas recover s = sigmoid(x) as
output / x. Everywhere else this is exact, also for second derivatives (the saved output is differentiable),
but at x = 0 it is 0 / 0 = NaN instead of f'(0) = 0.5. The text: "`SiLU.apply(x)` takes a floating-point
tensor of any shape" and "`backward(ctx, g)` returns `g * f'(x)` and `jvp(ctx, t)` returns `t * f'(x)`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail"}
CELLS = {"silu_impl": edited(
    "16-02", "silu_impl",
    ("        (x,) = inputs\n        ctx.save_for_backward(x)\n        ctx.save_for_forward(x)",
     "        (x,) = inputs\n        ctx.save_for_backward(x, output)\n        ctx.save_for_forward(x, output)"),
    ("    def backward(ctx, g):\n        ### BEGIN SOLUTION\n        (x,) = ctx.saved_tensors\n        s = torch.sigmoid(x)",
     "    def backward(ctx, g):\n        ### BEGIN SOLUTION\n        x, out = ctx.saved_tensors\n        s = out / x"),
    ("    def jvp(ctx, t):\n        ### BEGIN SOLUTION\n        (x,) = ctx.saved_tensors\n        s = torch.sigmoid(x)",
     "    def jvp(ctx, t):\n        ### BEGIN SOLUTION\n        x, out = ctx.saved_tensors\n        s = out / x"))}
