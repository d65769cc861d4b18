"""The backward flattens with .view(-1) and views the product back: fine for contiguous tensors, but for a
transposed input the saved output (laid out like empty_like(x), transposed too) cannot be viewed flat and the
backward raises; the text says transposed inputs are included."""
EXPECT = {"clip_grad": "fail"}
CELLS = {
    "grad_impl": '''
def _clip_setup_context(ctx, inputs, output):
    ctx.save_for_backward(output)
    ctx.limit = inputs[1]


def _clip_backward(ctx, grad):
    (y,) = ctx.saved_tensors
    flat = grad.reshape(-1) * (1 - (y.view(-1) / ctx.limit) ** 2)
    return flat.view(grad.shape), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
