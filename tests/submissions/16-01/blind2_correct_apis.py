"""Correct, through other APIs: the functional form of custom_op with torch.library.register_fake and
torch.library.register_autograd by the operator's name, torch.square in the derivative, the average by torch.add
with out=avg, the fused op's gradient by PyTorch's own aten.gelu_backward on the saved x, the mask by torch.ge, and
a Triton kernel that takes the mask as uint8 bytes and writes tanh as 2 sigmoid(2u) - 1."""
EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {
    "clip_impl": '''
def _smooth_clip_kernel(x: torch.Tensor, limit: float) -> torch.Tensor:
    return torch.mul(torch.tanh(torch.div(x, limit)), limit)


smooth_clip = torch.library.custom_op("c1601::smooth_clip", _smooth_clip_kernel, mutates_args=())


@torch.library.register_fake("c1601::smooth_clip")
def _(x, limit):
    """The metadata of smooth_clip's output, without data."""
    return torch.empty_like(x, dtype=x.dtype, device=x.device)
''',
    "grad_impl": '''
def _clip_setup_context(ctx, inputs, output):
    """Keep what the backward needs: the output (saved) and limit."""
    ctx.save_for_backward(output)
    ctx.limit = float(inputs[1])


def _clip_backward(ctx, grad):
    """grad * (1 - (y / limit)**2) for x, None for limit."""
    return grad * (1 - torch.square(ctx.saved_tensors[0] / ctx.limit)), None


torch.library.register_autograd("c1601::smooth_clip", _clip_backward, setup_context=_clip_setup_context)
''',
    "ema_impl": '''
def _ema_kernel(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
    torch.add(avg.mul(decay), x, alpha=1 - decay, out=avg)


def register_ema():
    """Register c1601::ema_ (avg <- decay * avg + (1 - decay) * x, in place) and return it."""
    op = torch.library.custom_op("c1601::ema_", _ema_kernel, mutates_args={"avg"})
    torch.library.register_fake("c1601::ema_", lambda avg, x, decay: None)
    return op
''',
    "fused_impl": '''
_C = math.sqrt(2 / math.pi)  # the constant of the tanh approximation


@torch.library.custom_op("c1601::gelu_dropout_op", mutates_args=())
def gelu_dropout_op(x: torch.Tensor, keep: torch.Tensor, p: float) -> torch.Tensor:
    """gelu(x) * keep / (1 - p), GELU in its tanh approximation."""
    return F.gelu(x, approximate="tanh").mul(keep).div(1 - p)


@torch.library.register_fake("c1601::gelu_dropout_op")
def _(x, keep, p):
    return torch.empty_like(x)


def _fused_setup(ctx, inputs, output):
    """Keep x and the boolean keep mask (saved) and p."""
    x, keep, ctx.p = inputs
    ctx.save_for_backward(x, keep)


def _fused_backward(ctx, grad):
    """grad * keep / (1 - p) * gelu'(x), gelu' recomputed from x; None for keep and p."""
    x, keep = ctx.saved_tensors
    return torch.ops.aten.gelu_backward(grad * keep / (1 - ctx.p), x, approximate="tanh"), None, None


torch.library.register_autograd("c1601::gelu_dropout_op", _fused_backward, setup_context=_fused_setup)


def gelu_dropout(x, p, generator=None):
    """GELU (tanh approximation) then dropout with probability p, as one operator; the mask from generator."""
    if p == 0.0:
        return gelu_dropout_op(x, torch.ones_like(x, dtype=torch.bool), 0.0)
    u = torch.rand(tuple(x.size()), generator=generator, dtype=x.dtype, device=x.device)
    return gelu_dropout_op(x, torch.ge(u, p), p)
''',
    "triton_impl": '''
@triton_jit
def gelu_dropout_kernel(x_ptr, keep_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = idx < n
    v = tl.load(x_ptr + idx, mask=live, other=0.0)
    kept = tl.load(keep_ptr + idx, mask=live, other=0) != 0
    th = 2.0 * tl.sigmoid(1.5957691216057308 * (v + 0.044715 * v * v * v)) - 1.0
    res = 0.5 * v * (1.0 + th) * scale
    tl.store(out_ptr + idx, tl.where(kept, res, 0.0), mask=live)


def launch_gelu_dropout(x, keep, p, block=1024):
    """gelu(x) * keep / (1 - p) by gelu_dropout_kernel, on contiguous copies of x and keep."""
    xs = x.contiguous()
    ks = keep.contiguous().view(torch.uint8)
    res = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    if xs.numel() == 0:
        return res
    gelu_dropout_kernel[(triton.cdiv(xs.numel(), block),)](xs, ks, res, xs.numel(), 1.0 / (1.0 - p), BLOCK=block)
    return res


@gelu_dropout_op.register_kernel("cuda")
def _(x, keep, p):
    return torch.empty_like(x).copy_(launch_gelu_dropout(x, keep, p))
''',
}
