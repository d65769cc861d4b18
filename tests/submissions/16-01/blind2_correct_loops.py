"""Correct, with loops and staged writes: the clip filled row by row into torch.empty_like(x) (0-dim apart),
the gradient by torch.addcmul, the average in two in-place steps, the fused op written into an out= tensor with
gelu' in the backward taken by a forward-mode torch.func.jvp on x, and a Triton kernel with a stable tanh from
exp(-2|u|)."""
EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {
    "clip_impl": '''
@torch.library.custom_op("c1601::smooth_clip", mutates_args=())
def smooth_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    """limit * tanh(x / limit), elementwise; a new tensor laid out like torch.empty_like(x)."""
    out = torch.empty_like(x)
    if x.dim() == 0:
        out.copy_(torch.tanh(x / limit) * limit)
        return out
    for i in range(x.shape[0]):
        out[i] = torch.tanh(x[i] / limit) * limit
    return out


@smooth_clip.register_fake
def _(x, limit):
    """The metadata of smooth_clip's output, without data."""
    return torch.empty_like(x)
''',
    "grad_impl": '''
def _clip_setup_context(ctx, inputs, output):
    """Keep what the backward needs: the output (saved) and limit."""
    ctx.save_for_backward(output)
    ctx.limit = inputs[1]


def _clip_backward(ctx, grad):
    """grad * (1 - (y / limit)**2) for x, None for limit."""
    (y,) = ctx.saved_tensors
    scaled = y / ctx.limit
    return torch.addcmul(grad, grad, scaled * scaled, value=-1.0), None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
    "ema_impl": '''
def register_ema():
    """Register c1601::ema_ (avg <- decay * avg + (1 - decay) * x, in place) and return it."""
    @torch.library.custom_op("c1601::ema_", mutates_args=["avg"])
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        for step in ("shrink", "add"):
            if step == "shrink":
                avg.mul_(decay)
            else:
                avg += (1.0 - decay) * x

    ema_.register_fake(lambda avg, x, decay: None)
    return ema_
''',
    "fused_impl": '''
_C = math.sqrt(2 / math.pi)  # the constant of the tanh approximation


def _gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(_C * (x + 0.044715 * torch.pow(x, 3))))


@torch.library.custom_op("c1601::gelu_dropout_op", mutates_args=())
def gelu_dropout_op(x: torch.Tensor, keep: torch.Tensor, p: float) -> torch.Tensor:
    """gelu(x) * keep / (1 - p), GELU in its tanh approximation."""
    out = torch.empty_like(x)
    torch.mul(_gelu(x), keep, out=out)
    out.mul_(1.0 / (1.0 - p))
    return out


@gelu_dropout_op.register_fake
def _(x, keep, p):
    return torch.empty_like(x)


def _fused_setup(ctx, inputs, output):
    """Keep x and the boolean keep mask (saved) and p."""
    x, keep, p = inputs
    ctx.save_for_backward(x, keep)
    ctx.p = p


def _fused_backward(ctx, grad):
    """grad * keep / (1 - p) * gelu'(x), gelu' recomputed from x; None for keep and p."""
    x, keep = ctx.saved_tensors
    _, dgelu = torch.func.jvp(lambda t: F.gelu(t, approximate="tanh"), (x,), (torch.ones_like(x),))
    return grad * keep / (1 - ctx.p) * dgelu, None, None


gelu_dropout_op.register_autograd(_fused_backward, setup_context=_fused_setup)


def gelu_dropout(x, p, generator=None):
    """GELU (tanh approximation) then dropout with probability p, as one operator; the mask from generator."""
    keep = x.new_ones(x.shape, dtype=torch.bool)
    if p != 0:
        keep = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device).ge(p)
    return gelu_dropout_op(x, keep, p)
''',
    "triton_impl": '''
@triton_jit
def gelu_dropout_kernel(x_ptr, keep_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    x = tl.load(x_ptr + offs, mask=inside, other=0.0)
    k = tl.load(keep_ptr + offs, mask=inside, other=0)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    e = tl.exp(-2.0 * tl.abs(u))
    t = (1 - e) / (1 + e)
    t = tl.where(u >= 0, t, -t)
    g = 0.5 * x * (1 + t)
    tl.store(out_ptr + offs, tl.where(k != 0, g * scale, 0.0), mask=inside)


def launch_gelu_dropout(x, keep, p, block=1024):
    """gelu(x) * keep / (1 - p) by gelu_dropout_kernel, on contiguous copies of x and keep."""
    xc, kc = x.contiguous(), keep.contiguous()
    out = torch.empty_like(xc)
    n = xc.numel()
    if n == 0:
        return out
    gelu_dropout_kernel[(triton.cdiv(n, block),)](xc, kc, out, n, 1.0 / (1 - p), BLOCK=block)
    return out


@gelu_dropout_op.register_kernel("cuda")
def _(x, keep, p):
    return torch.empty_like(x).copy_(launch_gelu_dropout(x, keep, p))
''',
}
