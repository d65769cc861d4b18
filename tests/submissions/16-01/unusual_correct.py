"""Correct, written differently throughout: method chains and preserve_format for the clip, a subtraction form of
its derivative, the functional form of custom_op with lerp_ for the average, a written-out GELU whose backward asks
autograd for gelu' on a detached copy of x, a mask drawn by uniform_ on a fresh tensor, and a Triton kernel
that writes GELU as x * sigmoid(2u) and is launched with a grid function."""
EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {
    "clip_impl": '''
def _clip_kernel(x: torch.Tensor, limit: float) -> torch.Tensor:
    return x.div(limit).tanh().mul(limit)


smooth_clip = torch.library.custom_op("c1601::smooth_clip", _clip_kernel, mutates_args=())
smooth_clip.register_fake(lambda x, limit: torch.empty_like(x, memory_format=torch.preserve_format))
''',
    "grad_impl": '''
def _clip_setup_context(ctx, inputs, output):
    ctx.save_for_backward(output)
    ctx.limit = float(inputs[1])


def _clip_backward(ctx, grad):
    y = ctx.saved_tensors[0]
    r = y / ctx.limit
    return grad - grad * r * r, None


smooth_clip.register_autograd(_clip_backward, setup_context=_clip_setup_context)
''',
    "ema_impl": '''
def _ema_kernel(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
    avg.lerp_(x.expand_as(avg), 1.0 - decay)


def register_ema():
    return torch.library.custom_op("c1601::ema_", _ema_kernel, mutates_args=("avg",))
''',
    "fused_impl": '''
_C = math.sqrt(2 / math.pi)


def _gelu(x):
    return 0.5 * x * (1 + torch.tanh(_C * (x + 0.044715 * x * x * x)))


@torch.library.custom_op("c1601::gelu_dropout_op", mutates_args=())
def gelu_dropout_op(x: torch.Tensor, keep: torch.Tensor, p: float) -> torch.Tensor:
    # out=: laid out like x whatever keep's layout (where's own output follows its first operand, keep)
    return torch.where(keep, _gelu(x) * (1.0 / (1.0 - p)), torch.zeros_like(x), out=torch.empty_like(x))


@gelu_dropout_op.register_fake
def _(x, keep, p):
    return x.new_empty(()).expand(x.shape).clone() if x.is_contiguous() else torch.empty_like(x)


def _fused_setup(ctx, inputs, output):
    ctx.save_for_backward(inputs[0], inputs[1])
    ctx.p = inputs[2]


def _fused_backward(ctx, grad):
    x, keep = ctx.saved_tensors
    with torch.enable_grad():
        xx = x.detach().requires_grad_(True)
        (d,) = torch.autograd.grad(_gelu(xx), xx, torch.where(keep, grad / (1.0 - ctx.p), torch.zeros_like(grad)))
    return d, None, None


gelu_dropout_op.register_autograd(_fused_backward, setup_context=_fused_setup)


def gelu_dropout(x, p, generator=None):
    if p > 0:
        keep = torch.empty(x.shape, dtype=x.dtype, device=x.device).uniform_(generator=generator) >= p
    else:
        keep = torch.ones_like(x, dtype=torch.bool, memory_format=torch.contiguous_format)
    return gelu_dropout_op(x, keep, p)
''',
    "triton_impl": '''
@triton_jit
def gelu_dropout_kernel(x_ptr, keep_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    idx = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    ok = idx < n
    x = tl.load(x_ptr + idx, mask=ok)
    k = tl.load(keep_ptr + idx, mask=ok, other=0)
    y = x * tl.sigmoid(1.5957691216057308 * x * (1.0 + 0.044715 * x * x))  # 0.5 x (1 + tanh u) = x sigmoid(2u)
    tl.store(out_ptr + idx, tl.where(k, y * scale, tl.zeros_like(y)), mask=ok)


def launch_gelu_dropout(x, keep, p, block=1024):
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    if out.numel() == 0:
        return out
    flat_x, flat_keep = x.reshape(-1).contiguous(), keep.reshape(-1).contiguous()
    grid = lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)  # noqa: E731
    gelu_dropout_kernel[grid](flat_x, flat_keep, out, flat_x.numel(), 1.0 / (1.0 - p), BLOCK=block)
    return out


@gelu_dropout_op.register_kernel("cuda")
def _(x, keep, p):
    return torch.empty_like(x).copy_(launch_gelu_dropout(x, keep, p))
''',
}
