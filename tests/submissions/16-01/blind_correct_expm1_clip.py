"""Correct, written by hand: smooth_clip as sign(x) * limit * (-expm1(-2|x|/limit)) / (1 + exp(-2|x|/limit))
(tanh from expm1 on the negative half-line, so it never overflows and keeps full precision near 0), the fake
kernel as torch.empty_strided with the strides empty_like gives on the meta device, and a backward written as the factored form
grad * (1 - y/limit) * (1 + y/limit). (Until the third held-out round it multiplied |x| by -2.0 / limit, nan at x = 0 for a
subnormal limit: wrong by "any limit > 0", now divided first.)"""
EXPECT = {"clip_op": "pass", "clip_grad": "pass"}
CELLS = {
    "clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    a = x.abs() / limit * -2.0  # divided first: -2.0 / limit is -inf for a subnormal limit, and 0 * inf is nan
    mag = -torch.expm1(a) / (1 + torch.exp(a))
    return torch.sign(x) * mag * limit


@smooth_clip.register_fake
def _(x, limit):
    strides = torch.empty_like(x, device="meta").stride()
    return torch.empty_strided(x.shape, strides, dtype=x.dtype, device=x.device)
''',
    "grad_impl": '''
def _clip_setup_context(ctx, inputs, output):
    ctx.limit = float(inputs[1])
    ctx.save_for_backward(output)


def _clip_backward(ctx, grad):
    (y,) = ctx.saved_tensors
    r = y / ctx.limit
    return (1 - r) * (1 + r) * grad, None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
}
