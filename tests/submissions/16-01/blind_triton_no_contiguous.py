"""Passes x and keep to the kernel as they are ("a tensor is a pointer"): for a transposed x the kernel reads
memory order and writes it into a contiguous output, so the elements come out permuted (the text asks for
contiguous copies)."""
EXPECT = {"triton": "fail"}
CELLS = {
    "triton_impl": '''
@triton_jit
def gelu_dropout_kernel(x_ptr, keep_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    k = tl.load(keep_ptr + offs, mask=m, other=0)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2 * tl.sigmoid(2 * u) - 1
    g = 0.5 * x * (1 + t)
    tl.store(out_ptr + offs, tl.where(k != 0, g * scale, 0.0), mask=m)


def launch_gelu_dropout(x, keep, p, block=1024):
    xc, kc = x, keep
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = xc.numel()
    if n:
        gelu_dropout_kernel[(triton.cdiv(n, block),)](xc, kc, out, n, 1.0 / (1.0 - p), BLOCK=block)
    return out


@gelu_dropout_op.register_kernel("cuda")
def _(x, keep, p):
    return torch.empty_like(x).copy_(launch_gelu_dropout(x, keep, p))
''',
}
