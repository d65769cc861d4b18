"""Correct, written out by hand: tanh from expm1 of -2|z| with the sign put back (finite for any input), the clip's
derivative factored as (1 - y/c)(1 + y/c), the average as decay * avg - (decay - 1) * x (sub_ with alpha; until round 17
avg - (1 - decay)(avg - x), which loses x at decay 0 when avg is 1e18 times larger), GELU as x * sigmoid(2u) with
its derivative written from the sigmoid, the mask kept where not (u < p), and a Triton kernel with GELU as
x * sigmoid(2u), launched with a grid function."""
EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {
    "clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    """limit * tanh(x / limit), elementwise; a new tensor laid out like torch.empty_like(x)."""
    z = x / limit
    e = torch.exp(-2 * z.abs())          # in (0, 1]: never overflows
    t = -torch.expm1(-2 * z.abs()) / (1 + e)   # tanh(|z|), accurate near 0 too
    return limit * torch.sign(z) * t


@smooth_clip.register_fake
def _(x, limit):
    """The metadata of smooth_clip's output, without data."""
    return torch.empty_like(x, memory_format=torch.preserve_format)
''',
    "grad_impl": '''
def _clip_setup_context(ctx, inputs, output):
    """Keep what the backward needs: the output (saved) and limit."""
    _, ctx.limit = inputs
    ctx.save_for_backward(output)


def _clip_backward(ctx, grad):
    """grad * (1 - (y / limit)**2) for x, None for limit."""
    y, = ctx.saved_tensors
    r = y / ctx.limit
    return grad * ((1 - r) * (1 + r)), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
    "ema_impl": '''
def register_ema():
    """Register c1601::ema_ (avg <- decay * avg + (1 - decay) * x, in place) and return it."""
    @torch.library.custom_op("c1601::ema_", mutates_args=("avg",))
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay).sub_(x, alpha=decay - 1)

    @ema_.register_fake
    def _(avg, x, decay):
        pass

    return ema_
''',
    "fused_impl": '''
_C = math.sqrt(2 / math.pi)  # the constant of the tanh approximation


def _u(x):
    return _C * (x + 0.044715 * x * x * x)


@torch.library.custom_op("c1601::gelu_dropout_op", mutates_args=())
def gelu_dropout_op(x: torch.Tensor, keep: torch.Tensor, p: float) -> torch.Tensor:
    """gelu(x) * keep / (1 - p), GELU in its tanh approximation."""
    gelu = x * torch.sigmoid(2 * _u(x))        # 0.5 (1 + tanh u) == sigmoid(2u)
    return gelu * keep * (1.0 / (1 - p))


@gelu_dropout_op.register_fake
def _(x, keep, p):
    return x.new_empty_strided(x.shape, torch.empty_like(x).stride())


def _fused_setup(ctx, inputs, output):
    """Keep x and the boolean keep mask (saved) and p."""
    ctx.save_for_backward(inputs[0], inputs[1])
    ctx.p = inputs[2]


def _fused_backward(ctx, grad):
    """grad * keep / (1 - p) * gelu'(x), gelu' recomputed from x; None for keep and p."""
    x, keep = ctx.saved_tensors
    s = torch.sigmoid(2 * _u(x))
    du = _C * (1 + 3 * 0.044715 * x * x)
    d = s + x * (s * (1 - s)) * 2 * du
    return torch.where(keep, grad * d / (1 - ctx.p), torch.zeros((), dtype=grad.dtype, device=grad.device)), None, None


gelu_dropout_op.register_autograd(_fused_backward, setup_context=_fused_setup)


def gelu_dropout(x, p, generator=None):
    """GELU (tanh approximation) then dropout with probability p, as one operator; the mask from generator."""
    if p > 0:
        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)
        keep = ~(u < p)
    else:
        keep = torch.ones(x.shape, dtype=torch.bool, device=x.device)
    return gelu_dropout_op(x, keep, float(p))
''',
    "triton_impl": '''
@triton_jit
def gelu_dropout_kernel(x_ptr, keep_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    start = tl.program_id(axis=0) * BLOCK
    offs = start + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(x_ptr + offs, mask=ok, other=0.0)
    k = tl.load(keep_ptr + offs, mask=ok, other=False)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    gelu = x * tl.sigmoid(2.0 * u)
    tl.store(out_ptr + offs, tl.where(k, gelu * scale, tl.zeros_like(gelu)), mask=ok)


def launch_gelu_dropout(x, keep, p, block=1024):
    """gelu(x) * keep / (1 - p) by gelu_dropout_kernel, on contiguous copies of x and keep."""
    flat_x = x.contiguous().reshape(-1)
    flat_k = keep.contiguous().reshape(-1)
    out = torch.empty_like(flat_x)
    n = flat_x.numel()
    if n > 0:
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
        gelu_dropout_kernel[grid](flat_x, flat_k, out, n, 1.0 / (1.0 - p), BLOCK=block)
    return out.reshape(x.shape)


@gelu_dropout_op.register_kernel("cuda")
def _(x, keep, p):
    return torch.empty_like(x).copy_(launch_gelu_dropout(x, keep, p))
''',
}
