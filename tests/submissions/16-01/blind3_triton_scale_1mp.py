"""Passes scale = 1 - p (multiplies where it should divide)."""
EXPECT = {'triton': 'fail'}
CELLS = {
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
    grid = (triton.cdiv(n, block),)
    gelu_dropout_kernel[grid](xc, kc, out, n, 1.0 - p, BLOCK=block)
    return out


@gelu_dropout_op.register_kernel("cuda")
def _(x, keep, p):
    return torch.empty_like(x).copy_(launch_gelu_dropout(x, keep, p))
''',
}
