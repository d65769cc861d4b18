"""Computes the derivative factor in float32 "to be fast" and casts it back: for float64 inputs the gradient
is only float32-accurate (relative error about 1e-7), not the derivative of limit * tanh(x / limit) in
float64. gradcheck's loose tolerances let it through."""
EXPECT = {"clip_grad": "fail"}
CELLS = {
    "grad_impl": '''
def _clip_setup_context(ctx, inputs, output):
    ctx.save_for_backward(output)
    ctx.limit = inputs[1]


def _clip_backward(ctx, grad):
    (y,) = ctx.saved_tensors
    d = 1 - (y.float() / ctx.limit) ** 2
    return grad * d.to(grad.dtype), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
