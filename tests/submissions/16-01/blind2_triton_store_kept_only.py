"""Stores only where keep is true (mask=inside & k) and relies on a zero-filled output from the launcher: the kernel
does not store 0 where keep is false as the task says."""
EXPECT = {"triton": "fail"}
CELLS = {
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
    tl.store(out_ptr + offs, g * scale, mask=inside & (k != 0))


def launch_gelu_dropout(x, keep, p, block=1024):
    """gelu(x) * keep / (1 - p) by gelu_dropout_kernel, on contiguous copies of x and keep."""
    xc, kc = x.contiguous(), keep.contiguous()
    out = torch.zeros_like(xc)
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
