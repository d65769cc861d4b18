"""Draws the mask as torch.empty_like(x).uniform_(generator=generator) ("rand_like with a generator"): for a
transposed x, empty_like is transposed too, so the random numbers land in memory order, not in the logical
order of torch.rand(x.shape, ...): a different mask than the unfused composition's under the same generator."""
EXPECT = {"fused": "fail"}
CELLS = {
    "fused_impl": '''
_C = math.sqrt(2 / math.pi)


def _gelu(x):
    return 0.5 * x * (1 + torch.tanh(_C * (x + 0.044715 * x ** 3)))


def _gelu_grad(x):
    t = torch.tanh(_C * (x + 0.044715 * x ** 3))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _C * (1 + 3 * 0.044715 * x * x)


@torch.library.custom_op("c1601::gelu_dropout_op", mutates_args=())
def gelu_dropout_op(x: torch.Tensor, keep: torch.Tensor, p: float) -> torch.Tensor:
    return _gelu(x) * keep / (1 - p)


@gelu_dropout_op.register_fake
def _(x, keep, p):
    return torch.empty_like(x)


def _fused_setup(ctx, inputs, output):
    x, keep, p = inputs
    ctx.save_for_backward(x, keep)
    ctx.p = p


def _fused_backward(ctx, grad):
    x, keep = ctx.saved_tensors
    return grad * keep / (1 - ctx.p) * _gelu_grad(x), None, None


gelu_dropout_op.register_autograd(_fused_backward, setup_context=_fused_setup)


def gelu_dropout(x, p, generator=None):
    if p == 0:
        keep = torch.ones(x.shape, dtype=torch.bool, device=x.device)
    else:
        u = torch.empty_like(x).uniform_(generator=generator)
        keep = u >= p
    return gelu_dropout_op(x, keep, p)
''',
}
