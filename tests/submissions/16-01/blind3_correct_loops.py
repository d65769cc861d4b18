"""Correct, written with other APIs: the clip by tanh(..., out=) into empty_like then mul_, the average with addcmul_
on an expanded x, the fused op by in-place mul_ chains on an empty_like copy with 1/(1-p) computed once, the Triton
launcher with a grid lambda."""
EXPECT = {'clip_op': 'pass', 'clip_grad': 'pass', 'ema': 'pass', 'fused': 'pass', 'triton': 'pass'}
CELLS = {
    'clip_impl': '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    out = torch.empty_like(x)
    torch.tanh(x / limit, out=out)
    out.mul_(limit)
    return out


@smooth_clip.register_fake
def _(x, limit):
    return torch.empty_like(x)
''',
    'ema_impl': '''
def register_ema():
    @torch.library.custom_op("c1601::ema_", mutates_args=["avg"])
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay)
        avg.addcmul_(x.expand_as(avg), torch.ones((), dtype=avg.dtype), value=1 - decay)

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
    'fused_impl': '''
_C = math.sqrt(2 / math.pi)


@torch.library.custom_op("c1601::gelu_dropout_op", mutates_args=())
def gelu_dropout_op(x: torch.Tensor, keep: torch.Tensor, p: float) -> torch.Tensor:
    scale = 1.0 / (1.0 - p)
    out = torch.empty_like(x)
    out.copy_(F.gelu(x, approximate="tanh"))
    out.mul_(keep)
    out.mul_(scale)
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
    'triton_impl': '''
@triton_jit
def gelu_dropout_kernel(x_ptr, keep_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    k = tl.load(keep_ptr + offs, mask=mask, other=0)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2.0 * tl.sigmoid(2.0 * u) - 1.0
    y = 0.5 * x * (1.0 + t) * scale
    y = tl.where(k != 0, y, 0.0)
    tl.store(out_ptr + offs, y, mask=mask)


def launch_gelu_dropout(x, keep, p, block=1024):
    xc = x.contiguous()
    kc = keep.contiguous()
    out = torch.empty_like(xc)
    n = xc.numel()
    if n == 0:
        return out
    grid = lambda meta: (triton.cdiv(n, meta['BLOCK']),)
    gelu_dropout_kernel[grid](xc, kc, out, n, 1.0 / (1.0 - p), BLOCK=block)
    return out


@gelu_dropout_op.register_kernel("cuda")
def _(x, keep, p):
    return torch.empty_like(x).copy_(launch_gelu_dropout(x, keep, p))
''',
}
