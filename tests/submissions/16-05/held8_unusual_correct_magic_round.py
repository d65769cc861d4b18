"""Held-out round 8, correct: quantize rounds with the float32 magic-number trick, (v + 1.5 * 2**23) - 1.5 * 2**23,
which rounds halves to even exactly for |v| < 2**22, after clamping v = x * inv to +-2**22 (levels that far out
saturate anyway); per channel it moves the axis last and broadcasts there, and dequantize subtracts the zero
point in int32 (levels and zero points fit)."""

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": '''
_MAGIC = 12582912.0  # 1.5 * 2**23: adding it leaves no fraction bits in float32


def _round_even(v):
    v = v.clamp(-4194304.0, 4194304.0)
    return (v + _MAGIC) - _MAGIC


def _last(t, axis, x):
    """x with `axis` moved last, and the parameter t ready to broadcast there."""
    return x.movedim(axis, -1), t


def quantize(x, scale, zero_point, dtype, axis=None):
    lo, hi = (-128, 127) if dtype == torch.int8 else (0, 255)
    if axis is None:
        inv = torch.reciprocal(torch.full((), scale, dtype=torch.float32, device=x.device))
        zp = torch.full((), zero_point, dtype=torch.float32, device=x.device)
        return torch.clamp(_round_even(x * inv) + zp, lo, hi).to(dtype)
    xm = x.movedim(axis, -1)
    inv = torch.reciprocal(scale.to(device=x.device, dtype=torch.float32))
    zp = zero_point.to(device=x.device, dtype=torch.float32)
    q = torch.clamp(_round_even(xm * inv) + zp, lo, hi).to(dtype)
    return q.movedim(-1, axis)


def dequantize(q, scale, zero_point, axis=None):
    if axis is None:
        d = q.to(torch.int32) - int(zero_point)
        return d.to(torch.float32) * torch.full((), scale, dtype=torch.float32, device=q.device)
    qm = q.movedim(axis, -1).to(torch.int32)
    d = qm - zero_point.to(device=q.device, dtype=torch.int32)
    return (d.to(torch.float32) * scale.to(device=q.device, dtype=torch.float32)).movedim(-1, axis)
'''}
