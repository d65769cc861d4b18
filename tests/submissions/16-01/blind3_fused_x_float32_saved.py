"""Saves x as float32 to save memory: float64 gradients get float32 precision."""
EXPECT = {'fused': 'fail'}
CELLS = {
    'fused_impl': '''
_C = math.sqrt(2 / math.pi)


@torch.library.custom_op("c1601::gelu_dropout_op", mutates_args=())
def gelu_dropout_op(x: torch.Tensor, keep: torch.Tensor, p: float) -> torch.Tensor:
    return torch.empty_like(x).copy_(F.gelu(x, approximate="tanh") * keep / (1 - p))


@gelu_dropout_op.register_fake
def _(x, keep, p):
    return torch.empty_like(x)


def _fused_setup(ctx, inputs, output):
    x, keep, p = inputs
    ctx.save_for_backward(x.float(), keep)
    ctx.p = p


def _fused_backward(ctx, grad):
    x, keep = ctx.saved_tensors
    x = x.to(grad.dtype)
    t = torch.tanh(_C * (x + 0.044715 * x**3))
    d = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _C * (1 + 3 * 0.044715 * x * x)
    return grad * keep / (1 - ctx.p) * d, None, None


gelu_dropout_op.register_autograd(_fused_backward, setup_context=_fused_setup)


def gelu_dropout(x, p, generator=None):
    if p == 0:
        keep = torch.ones_like(x, dtype=torch.bool)
    else:
        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)
        keep = u >= p
    return gelu_dropout_op(x, keep, p)
''',
}
