"""Keeps the output as a plain attribute (ctx.y = output) instead of ctx.save_for_backward: values and second
derivatives come out, but autograd cannot check the saved tensor was not overwritten, and the task asks for
save_for_backward."""
EXPECT = {"clip_grad": "fail"}
CELLS = {
    "grad_impl": '''
def _clip_setup_context(ctx, inputs, output):
    """Keep what the backward needs: the output (saved) and limit."""
    ctx.y = output
    ctx.limit = inputs[1]


def _clip_backward(ctx, grad):
    """grad * (1 - (y / limit)**2) for x, None for limit."""
    y = ctx.y
    return grad * (1 - (y / ctx.limit) ** 2), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
