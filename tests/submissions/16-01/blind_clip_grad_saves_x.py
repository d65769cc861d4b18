"""Saves the input x instead of the output and differentiates tanh from it, 1 - tanh(x / limit)**2: values and
second derivatives are right, but the text asks to save only the output y (not x)."""
EXPECT = {"clip_grad": "fail"}
CELLS = {
    "grad_impl": '''
def _clip_setup_context(ctx, inputs, output):
    x, limit = inputs
    ctx.save_for_backward(x)
    ctx.limit = limit


def _clip_backward(ctx, grad):
    (x,) = ctx.saved_tensors
    t = torch.tanh(x / ctx.limit)
    return grad * (1 - t * t), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
