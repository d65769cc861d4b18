"""Saves x and differentiates tanh(x/limit) from it, not the output as the text asks."""
EXPECT = {'clip_grad': 'fail'}
CELLS = {
    'grad_impl': '''
def _clip_setup_context(ctx, inputs, output):
    ctx.save_for_backward(inputs[0])
    ctx.limit = inputs[1]


def _clip_backward(ctx, grad):
    x, = ctx.saved_tensors
    t = torch.tanh(x / ctx.limit)
    return grad * (1 - t * t), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
