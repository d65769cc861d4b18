"""Round 26 (held out), correct but unusual: ScaledMul saves, through ctx.save_for_backward, only the tensors its
backward will read: y when x needs a gradient, x when y does (None in the other slot; ctx.needs_input_grad is
already set in forward), and keeps the two input shapes (torch.Size, not tensors) as ctx attributes for the
reductions. x's gradient needs only y and y's only x, so when one input needs no gradient the other input is not
kept alive. Every saved tensor is still checked on use (an in-place change of a tensor that backward reads
raises), and the forward, the three returned gradients and the Nones are the reference's."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "pass"}
CELLS = {"scaled_mul_impl": edited("15-01", "scaled_mul_impl", (
    "        ctx.save_for_backward(x, y)",
    "        ctx.save_for_backward(x if ctx.needs_input_grad[1] else None,\n"
    "                              y if ctx.needs_input_grad[0] else None)\n"
    "        ctx.x_shape, ctx.y_shape = x.shape, y.shape"), (
    ".sum_to_size(x.shape)", ".sum_to_size(ctx.x_shape)"), (
    ".sum_to_size(y.shape)", ".sum_to_size(ctx.y_shape)"))}
