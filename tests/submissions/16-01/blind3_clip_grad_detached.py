"""Detaches the saved output 'to be safe': the backward is no longer differentiable."""
EXPECT = {'clip_grad': 'fail'}
CELLS = {
    'grad_impl': '''
def _clip_setup_context(ctx, inputs, output):
    ctx.save_for_backward(output.detach())
    ctx.limit = inputs[1]


def _clip_backward(ctx, grad):
    y, = ctx.saved_tensors
    return grad * (1 - (y / ctx.limit) ** 2), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
