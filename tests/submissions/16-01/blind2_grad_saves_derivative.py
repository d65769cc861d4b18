"""Precomputes the local derivative 1 - (y / limit)**2 in setup_context and saves that instead of y: same bytes and
right gradients, but the task says setup_context saves only the output y."""
EXPECT = {"clip_grad": "fail"}
CELLS = {
    "grad_impl": '''
def _clip_setup_context(ctx, inputs, output):
    """Keep what the backward needs: the output (saved) and limit."""
    ctx.save_for_backward(1 - (output / inputs[1]) ** 2)
    ctx.limit = inputs[1]


def _clip_backward(ctx, grad):
    """grad * (1 - (y / limit)**2) for x, None for limit."""
    (d,) = ctx.saved_tensors
    return grad * d, None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
