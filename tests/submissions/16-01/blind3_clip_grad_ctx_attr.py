"""Keeps the output as a ctx attribute instead of save_for_backward."""
EXPECT = {'clip_grad': 'fail'}
CELLS = {
    'grad_impl': '''
def _clip_setup_context(ctx, inputs, output):
    ctx.y = output
    ctx.limit = inputs[1]


def _clip_backward(ctx, grad):
    return grad * (1 - (ctx.y / ctx.limit) ** 2), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
