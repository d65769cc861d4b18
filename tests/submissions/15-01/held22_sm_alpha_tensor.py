"""Round 22: ScaledMul keeps alpha for backward as a tensor, torch.tensor(alpha) (default float32), saved with
the inputs: for float64 inputs both gradients use float32(alpha), off by up to 3e-8 relative (alpha = 0.1:
1.5e-9 absolute per unit), although the output uses the exact alpha ("alpha is a Python float",
"ScaledMul.apply(x, y, alpha) = alpha * x * y": the gradients are alpha * y and alpha * x)."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "fail"}
CELLS = {"scaled_mul_impl": edited("15-01", "scaled_mul_impl", (
    """        ctx.save_for_backward(x, y)
        ctx.alpha = alpha""",
    """        ctx.save_for_backward(x, y, torch.tensor(alpha))"""), (
    """        x, y = ctx.saved_tensors""",
    """        x, y, ctx.alpha = ctx.saved_tensors"""))}
