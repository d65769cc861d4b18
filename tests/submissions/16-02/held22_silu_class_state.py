"""Round 22: "forward has no ctx", so SiLU keeps its input on the class: setup_context writes SiLU._x = x and
backward and jvp read SiLU._x (no save_for_backward). One SiLU per graph is right in every mode (jvp runs at
once, backward reads the x of the only call), but two SiLU calls before one backward share the slot:
SiLU.apply(SiLU.apply(x)) differentiates the inner call at the outer call's input. The text: "setup_context(ctx,
inputs, output) saves what the two formulas need" and "backward(ctx, g) returns g * f'(x)" (f'(x) at that call's
own x)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        (x,) = inputs\n        ctx.save_for_backward(x)\n        ctx.save_for_forward(x)",
    "        (x,) = inputs\n        SiLU._x = x"), (
    "        (x,) = ctx.saved_tensors\n        s = torch.sigmoid(x)\n        return g * (s + x * s * (1 - s))",
    "        x = SiLU._x\n        s = torch.sigmoid(x)\n        return g * (s + x * s * (1 - s))"), (
    "        (x,) = ctx.saved_tensors\n        s = torch.sigmoid(x)\n        return t * (s + x * s * (1 - s))",
    "        x = SiLU._x\n        s = torch.sigmoid(x)\n        return t * (s + x * s * (1 - s))"))}
