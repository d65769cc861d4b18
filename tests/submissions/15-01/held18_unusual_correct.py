"""Round 18, correct: ScaledMul saves only the tensor each needed gradient uses (y for x's gradient, x for
y's), deciding in forward with ctx.needs_input_grad and saving None in the other slot, and takes the shapes
from ctx attributes. Every gradient is right, nothing unneeded is kept alive, and both inputs still go
through save_for_backward when both require grad."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "pass"}
CELLS = {"scaled_mul_impl": edited("15-01", "scaled_mul_impl", (
    """        ctx.save_for_backward(x, y)
        ctx.alpha = alpha
        return alpha * x * y""",
    """        need_x, need_y = ctx.needs_input_grad[:2]
        ctx.save_for_backward(x if need_y else None, y if need_x else None)
        ctx.shapes = (x.shape, y.shape)
        ctx.alpha = alpha
        return alpha * x * y"""), (
    """        x, y = ctx.saved_tensors
        gx = gy = None
        if ctx.needs_input_grad[0]:
            gx = (grad_out * y * ctx.alpha).sum_to_size(x.shape)
        if ctx.needs_input_grad[1]:
            gy = (grad_out * x * ctx.alpha).sum_to_size(y.shape)""",
    """        x, y = ctx.saved_tensors
        x_shape, y_shape = ctx.shapes
        gx = gy = None
        if ctx.needs_input_grad[0]:
            gx = (grad_out * y * ctx.alpha).sum_to_size(x_shape)
        if ctx.needs_input_grad[1]:
            gy = (grad_out * x * ctx.alpha).sum_to_size(y_shape)"""))}
