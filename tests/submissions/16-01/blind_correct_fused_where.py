"""Correct, written differently: the fused forward written with out= into torch.empty_like(x) and an in-place
multiply by 1 / (1 - p), a backward that zeroes the dropped elements with masked_fill and recomputes GELU' by a
hand-written derivative in expanded form, the mask drawn as a flat torch.rand(numel) viewed to x's shape (the
same stream as torch.rand(x.shape)), an all-true mask built with torch.ones for p == 0, and a Triton kernel
that loads keep as uint8 bytes, writes tanh as 1 - 2 / (exp(2u) + 1) (finite at any x) and is launched on a
grid counted by hand, (n + block - 1) // block."""
EXPECT = {"fused": "pass", "triton": "pass"}
CELLS = {
    "fused_impl": '''
_C = math.sqrt(2 / math.pi)
_A = 0.044715


@torch.library.custom_op("c1601::gelu_dropout_op", mutates_args=())
def gelu_dropout_op(x: torch.Tensor, keep: torch.Tensor, p: float) -> torch.Tensor:
    t = torch.tanh(_C * (x + _A * x * x * x))
    g = 0.5 * x + 0.5 * x * t
    out = torch.empty_like(x)
    torch.mul(g, keep, out=out)
    return out.mul_(1.0 / (1.0 - p))


@gelu_dropout_op.register_fake
def _(x, keep, p):
    return torch.empty_like(x)


def _fused_setup(ctx, inputs, output):
    ctx.p = inputs[2]
    ctx.save_for_backward(inputs[0], inputs[1])


def _fused_backward(ctx, grad):
    x, keep = ctx.saved_tensors
    t = torch.tanh(_C * (x + _A * x * x * x))
    sech2 = 1 - t * t
    d = 0.5 + 0.5 * t + 0.5 * _C * x * sech2 + 1.5 * _C * _A * x * x * x * sech2
    gx = (grad * d).masked_fill(~keep, 0.0) / (1.0 - ctx.p)
    return gx, None, None


gelu_dropout_op.register_autograd(_fused_backward, setup_context=_fused_setup)


def gelu_dropout(x, p, generator=None):
    if p == 0:
        return gelu_dropout_op(x, torch.ones(x.shape, dtype=torch.bool, device=x.device), 0.0)
    flat = torch.rand(x.numel(), generator=generator, dtype=x.dtype, device=x.device)
    return gelu_dropout_op(x, flat.view(x.shape) >= p, p)
''',
    "triton_impl": '''
@triton_jit
def gelu_dropout_kernel(x_ptr, keep_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    start = tl.program_id(axis=0) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    inside = idx < n
    v = tl.load(x_ptr + idx, mask=inside, other=0.0)
    kb = tl.load(keep_ptr + idx, mask=inside, other=0)
    u = 0.7978845608028654 * v * (1.0 + 0.044715 * v * v)
    th = 1.0 - 2.0 / (tl.exp(2.0 * u) + 1.0)
    res = tl.where(kb > 0, 0.5 * v * (1.0 + th) * scale, 0.0)
    tl.store(out_ptr + idx, res, mask=inside)


def launch_gelu_dropout(x, keep, p, block=1024):
    src = x.contiguous().view(-1)
    kb = keep.contiguous().view(-1).view(torch.uint8)
    res = torch.empty(src.shape, dtype=x.dtype, device=x.device)
    n = src.numel()
    if n > 0:
        programs = (n + block - 1) // block
        gelu_dropout_kernel[(programs,)](src, kb, res, n, 1.0 / (1.0 - p), BLOCK=block)
    return res.view(x.shape)


@gelu_dropout_op.register_kernel("cuda")
def _(x, keep, p):
    return torch.empty_like(x).copy_(launch_gelu_dropout(x, keep, p))
''',
}
