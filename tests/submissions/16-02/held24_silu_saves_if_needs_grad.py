"""Round 24: SiLU's setup_context saves x only `if ctx.needs_input_grad[0]` ("nothing to save when no gradient
is wanted"). needs_input_grad is about reverse mode: a dual tensor (forward_ad) or torch.func.jvp / jacfwd of an
x that does not require grad has needs_input_grad (False,), so jvp finds nothing saved and fails. The text:
"setup_context(ctx, inputs, output) saves what the two formulas need" and "forward mode (dual numbers, jvp,
jacfwd) uses jvp"; wrong input: forward mode on an x with requires_grad False."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        ctx.save_for_backward(x)\n        ctx.save_for_forward(x)\n",
    "        if ctx.needs_input_grad[0]:\n            ctx.save_for_backward(x)\n            ctx.save_for_forward(x)\n"))}
