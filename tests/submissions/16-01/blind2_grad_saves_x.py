"""Saves the input x and recomputes 1 - tanh^2(x / limit) in the backward: the gradient is right, but the task says
setup_context saves only the output y, not x."""
EXPECT = {"clip_grad": "fail"}
CELLS = {
    "grad_impl": '''
def _clip_setup_context(ctx, inputs, output):
    """Keep what the backward needs: the output (saved) and limit."""
    ctx.save_for_backward(inputs[0])
    ctx.limit = inputs[1]


def _clip_backward(ctx, grad):
    """grad * (1 - (y / limit)**2) for x, None for limit."""
    (x,) = ctx.saved_tensors
    return grad * (1 - torch.tanh(x / ctx.limit) ** 2), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
