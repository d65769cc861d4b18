"""Correct, written unusually: quantize rounds by hand (floor, then up when the fraction is above one half or
exactly one half with an odd floor), brings the channel axis to the end with permute and back with the inverse
permutation, and dequantizes with torch.addcmul; fake_quantize is no autograd.Function but the detach trick,
x * mask + (fq(x) - x * mask).detach(), built on this quantize (round 22: x * mask became torch.where(mask, x, 0),
since x * mask is nan at an infinite x and the text's formula is finite there)."""
EXPECT = {"quant": "pass", "fake_quant": "pass"}
CELLS = {
    'quant_impl': '''
def _broadcast(t, axis, ndim):
    """A per-channel parameter shaped to broadcast along `axis` of an ndim-dimensional tensor."""
    shape = [1] * ndim
    shape[axis] = -1
    return t.reshape(shape)


_LEVELS = {torch.int8: (-128, 127), torch.uint8: (0, 255)}


def _round_half_even(v):
    f = torch.floor(v)
    frac = v - f
    odd = torch.remainder(f, 2) == 1
    up = (frac > 0.5) | ((frac == 0.5) & odd)
    return torch.where(up, f + 1, f)


def _to_last(x, axis):
    axis = axis % x.dim()
    order = [d for d in range(x.dim()) if d != axis] + [axis]
    back = [0] * x.dim()
    for i, d in enumerate(order):
        back[d] = i
    return x.permute(order), back


def quantize(x, scale, zero_point, dtype, axis=None):
    """Affine quantization of float32 x to int8 or uint8 levels, per tensor or per channel."""
    lo, hi = _LEVELS[dtype]
    if axis is None:
        inv = torch.reciprocal(torch.full((), scale, dtype=torch.float32, device=x.device))
        lev = _round_half_even(x * inv) + zero_point
        return lev.clamp(lo, hi).to(dtype)
    xt, back = _to_last(x, axis)
    inv = torch.reciprocal(scale.to(device=x.device, dtype=torch.float32))
    zp = zero_point.to(device=x.device, dtype=torch.float32)
    lev = _round_half_even(xt * inv) + zp
    return lev.clamp(lo, hi).to(dtype).permute(back)


def dequantize(q, scale, zero_point, axis=None):
    """(q - zero_point) * scale in float32, per tensor or per channel."""
    if axis is None:
        s = torch.full((), scale, dtype=torch.float32, device=q.device)
        return torch.addcmul(torch.zeros((), device=q.device), q.to(torch.int32) - zero_point, s).to(torch.float32)
    qt, back = _to_last(q, axis)
    d = qt.to(torch.int32) - zero_point.to(device=q.device, dtype=torch.int32)
    s = scale.to(device=q.device, dtype=torch.float32)
    return torch.addcmul(torch.zeros((), device=q.device), d, s).to(torch.float32).permute(back)
''',
    'fake_quant_impl': '''
class _FakeQuantize(torch.autograd.Function):
    pass


def fake_quantize(x, scale, zero_point, quant_min, quant_max):
    """dequantize(quantize(x)) on the grid [quant_min, quant_max], with the straight-through gradient."""
    with torch.no_grad():
        inv = torch.reciprocal(torch.full((), scale, dtype=torch.float32, device=x.device))
        lev = _round_half_even(x * inv) + zero_point
        keep = ((lev >= quant_min) & (lev <= quant_max)).to(x.dtype)
        out = (lev.clamp(quant_min, quant_max) - zero_point) * torch.full((), scale, dtype=torch.float32, device=x.device)
    through = torch.where(keep > 0, x, torch.zeros((), dtype=x.dtype, device=x.device))  # not x * keep: nan at inf
    return through + (out - through).detach()
''',
}
