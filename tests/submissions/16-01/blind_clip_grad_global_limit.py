"""Keeps limit in a module-level variable set by setup_context instead of on ctx: right as long as each
forward is followed by its own backward, but when two outputs with different limits are built before one
backward pass, both backwards use the last limit."""
EXPECT = {"clip_grad": "fail"}
CELLS = {
    "grad_impl": '''
_LIMIT = 1.0


def _clip_setup_context(ctx, inputs, output):
    global _LIMIT
    _LIMIT = inputs[1]
    ctx.save_for_backward(output)


def _clip_backward(ctx, grad):
    (y,) = ctx.saved_tensors
    return grad * (1 - (y / _LIMIT) ** 2), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
