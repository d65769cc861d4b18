"""Saves the output and also x 'in case': only y may be saved."""
EXPECT = {'clip_grad': 'fail'}
CELLS = {
    'grad_impl': '''
def _clip_setup_context(ctx, inputs, output):
    ctx.save_for_backward(output, inputs[0])
    ctx.limit = inputs[1]


def _clip_backward(ctx, grad):
    y, _ = ctx.saved_tensors
    return grad * (1 - (y / ctx.limit) ** 2), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
