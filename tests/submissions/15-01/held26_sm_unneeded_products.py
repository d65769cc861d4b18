"""Round 26 (held out): ScaledMul's backward computes both products grad_out * y * alpha and grad_out * x * alpha
every time and only skips the reduction (sum_to_size) for an input that needs no gradient.

Breaks "Honour ctx.needs_input_grad: return None (and compute nothing) for a tensor that needs no gradient".
Goes wrong whenever one input needs no gradient, e.g. x (3, 1) requiring grad and y (4,) not: it still
multiplies grad_out by x and alpha (a (3, 4) tensor) for y. The returned gradients (and the None) are right."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "fail"}
CELLS = {"scaled_mul_impl": edited("15-01", "scaled_mul_impl", (
    """        gx = gy = None
        if ctx.needs_input_grad[0]:
            gx = (grad_out * y * ctx.alpha).sum_to_size(x.shape)
        if ctx.needs_input_grad[1]:
            gy = (grad_out * x * ctx.alpha).sum_to_size(y.shape)
        return gx, gy, None""",
    """        gx = grad_out * y * ctx.alpha
        gy = grad_out * x * ctx.alpha
        return (gx.sum_to_size(x.shape) if ctx.needs_input_grad[0] else None,
                gy.sum_to_size(y.shape) if ctx.needs_input_grad[1] else None, None)"""))}
