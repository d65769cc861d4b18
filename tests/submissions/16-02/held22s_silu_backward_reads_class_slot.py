"""Round 22s (written after reading the checks, not counted): SiLU saves x for forward mode on its ctx
(save_for_forward, so jvp is right in every mode) but keeps the copy for backward on the class (SiLU._x = x in
setup_context, read by backward). One call per graph is right; two calls whose graphs are alive at once share the
slot, and the first call's backward runs at the second call's x. The text: "setup_context(ctx, inputs, output)
saves what the two formulas need" and "backward(ctx, g) returns g * f'(x)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        (x,) = inputs\n        ctx.save_for_backward(x)\n        ctx.save_for_forward(x)",
    "        (x,) = inputs\n        SiLU._x = x\n        ctx.save_for_forward(x)"), (
    "        (x,) = ctx.saved_tensors\n        s = torch.sigmoid(x)\n        return g * (s + x * s * (1 - s))",
    "        x = SiLU._x\n        s = torch.sigmoid(x)\n        return g * (s + x * s * (1 - s))"))}
