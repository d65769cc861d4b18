"""Correct, written differently: the clip by a sign and exp(-2|x|/c) form, its derivative as (1 - y/c)(1 + y/c), the
average by mul_ and addcmul_ (until round 17 by sub_ of the difference, avg - (avg - x)(1 - decay): 0, not
x, at decay 0 for an avg 1e18 times larger than x), a GELU as x * sigmoid(2u) with its derivative from the sigmoid, a mask via ~(u <
p), and a Triton tanh as 1 - 2/(e^{2u}+1). (Until the third held-out round the clip was (1 - e) / (1 + e) with e = exp(-2|x|/c),
0 for x = 3 and c = 1e30 where 1 - e cancels, and the kernel multiplied by keep, nan for a dropped element whose
gelu(x) * scale overflows: both wrong by the text ("any limit > 0", "0 where keep is false"); now expm1 and tl.where.)"""
EXPECT = {'clip_op': 'pass', 'clip_grad': 'pass', 'ema': 'pass', 'fused': 'pass', 'triton': 'pass'}
CELLS = {
    'clip_impl': '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    s = torch.sign(x)
    m = torch.expm1(-2.0 * x.abs() / limit)  # e - 1 without cancellation: 1 - e is 0 for a huge limit
    return limit * s * (-m) / (2 + m)


@smooth_clip.register_fake
def _(x, limit):
    return torch.empty_like(x)
''',
    'grad_impl': '''
def _clip_setup_context(ctx, inputs, output):
    (y,) = (output,)
    ctx.save_for_backward(y)
    ctx.limit = float(inputs[1])


def _clip_backward(ctx, grad):
    (y,) = ctx.saved_tensors
    r = y / ctx.limit
    return grad * (1 - r) * (1 + r), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
    'ema_impl': '''
def register_ema():
    @torch.library.custom_op("c1601::ema_", mutates_args=("avg",))
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay).addcmul_(x, torch.full_like(x, 1 - decay))

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
    'fused_impl': '''
_C = math.sqrt(2 / math.pi)


@torch.library.custom_op("c1601::gelu_dropout_op", mutates_args=())
def gelu_dropout_op(x: torch.Tensor, keep: torch.Tensor, p: float) -> torch.Tensor:
    u = _C * (x + 0.044715 * x * x * x)
    out = torch.empty_like(x)
    out.copy_(torch.where(keep, x * torch.sigmoid(2 * u) / (1 - p), torch.zeros((), dtype=x.dtype, device=x.device)))
    return out


@gelu_dropout_op.register_fake
def _(x, keep, p):
    return torch.empty_like(x)


def _fused_setup(ctx, inputs, output):
    x, keep, p = inputs
    ctx.save_for_backward(x, keep)
    ctx.p = p


def _fused_backward(ctx, grad):
    x, keep = ctx.saved_tensors
    s = torch.sigmoid(2 * _C * (x + 0.044715 * x * x * x))
    d = s + x * s * (1 - s) * 2 * _C * (1 + 3 * 0.044715 * x * x)
    return torch.where(keep, grad * d / (1 - ctx.p), torch.zeros_like(grad)), None, None


gelu_dropout_op.register_autograd(_fused_backward, setup_context=_fused_setup)


def gelu_dropout(x, p, generator=None):
    if p == 0:
        return gelu_dropout_op(x, torch.ones(x.shape, dtype=torch.bool, device=x.device), 0.0)
    u = torch.rand(tuple(x.shape), generator=generator, dtype=x.dtype, device=x.device)
    return gelu_dropout_op(x, ~(u < p), p)
''',
    'triton_impl': '''
@triton_jit
def gelu_dropout_kernel(x_ptr, keep_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    k = tl.load(keep_ptr + offs, mask=mask, other=0)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 1.0 - 2.0 / (tl.exp(2.0 * u) + 1.0)
    y = 0.5 * x * (1.0 + t) * scale
    y = tl.where(k != 0, y, 0.0)  # not y * keep: a dropped inf (gelu(x) * scale overflowing) would give nan
    tl.store(out_ptr + offs, y, mask=mask)


def launch_gelu_dropout(x, keep, p, block=1024):
    xc = x.contiguous()
    kc = keep.contiguous()
    out = torch.empty_like(xc)
    n = xc.numel()
    if n == 0:
        return out
    grid = (triton.cdiv(n, block),)
    gelu_dropout_kernel[grid](xc, kc, out, n, 1.0 / (1.0 - p), BLOCK=block)
    return out


@gelu_dropout_op.register_kernel("cuda")
def _(x, keep, p):
    return torch.empty_like(x).copy_(launch_gelu_dropout(x, keep, p))
''',
}
