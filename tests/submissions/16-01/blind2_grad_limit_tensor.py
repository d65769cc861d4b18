"""Saves limit too, as a tensor through save_for_backward (ctx.save_for_backward(output, torch.tensor(limit))): the
task says only the output is saved and limit is kept on ctx."""
EXPECT = {"clip_grad": "fail"}
CELLS = {
    "grad_impl": '''
def _clip_setup_context(ctx, inputs, output):
    """Keep what the backward needs: the output (saved) and limit."""
    ctx.save_for_backward(output, torch.tensor(inputs[1], dtype=output.dtype))


def _clip_backward(ctx, grad):
    """grad * (1 - (y / limit)**2) for x, None for limit."""
    y, limit = ctx.saved_tensors
    return grad * (1 - (y / limit) ** 2), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
