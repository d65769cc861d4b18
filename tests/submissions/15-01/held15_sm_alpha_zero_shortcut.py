"""Round 15: ScaledMul short-cuts alpha == 0 with torch.zeros(broadcast shape, dtype=...) in forward and backward:
the zeros are made without device= (a GPU input gets CPU results), and alpha * x * y is nan where x or y is
inf or nan (0 * inf), which the short cut turns into 0."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "fail"}
CELLS = {"scaled_mul_impl": edited("15-01", "scaled_mul_impl", (
    """        ctx.alpha = alpha
        return alpha * x * y""",
    """        ctx.alpha = alpha
        if alpha == 0:  # nothing to multiply
            return torch.zeros(torch.broadcast_shapes(x.shape, y.shape), dtype=torch.result_type(x, y))
        return alpha * x * y"""), (
    """        gx = gy = None
""",
    """        gx = gy = None
        if ctx.alpha == 0:
            if ctx.needs_input_grad[0]:
                gx = torch.zeros(x.shape, dtype=x.dtype)
            if ctx.needs_input_grad[1]:
                gy = torch.zeros(y.shape, dtype=y.dtype)
            return gx, gy, None
"""))}
