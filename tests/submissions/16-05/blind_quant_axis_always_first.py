"""Per channel, the scales and zero points are always shaped (C, 1, 1, ...), as for a Linear weight's output channel:
`axis` is ignored, so axis=1 or a negative axis broadcasts along the wrong dimension (or fails)."""
EXPECT = {'quant': 'fail'}
CELLS = {
    'quant_impl': '''
def _broadcast(t, axis, ndim):
    shape = [1] * ndim
    shape[axis] = -1
    return t.reshape(shape)


def _range(dtype):
    return (-128, 127) if dtype == torch.int8 else (0, 255)


def quantize(x, scale, zero_point, dtype, axis=None):
    qmin, qmax = _range(dtype)
    if axis is None:
        s = torch.tensor(scale, dtype=torch.float32, device=x.device)
        z = zero_point
    else:
        s = scale.to(device=x.device, dtype=torch.float32).reshape([-1] + [1] * (x.dim() - 1))
        z = zero_point.to(device=x.device, dtype=torch.int64).reshape([-1] + [1] * (x.dim() - 1))
    inv = 1.0 / s
    v = torch.round(x * inv) + z
    return torch.clamp(v, qmin, qmax).to(dtype)


def dequantize(q, scale, zero_point, axis=None):
    if axis is None:
        return ((q.to(torch.int64) - zero_point) * torch.tensor(scale, dtype=torch.float32, device=q.device)).float()
    s = _broadcast(scale.to(device=q.device, dtype=torch.float32), axis, q.dim())
    z = _broadcast(zero_point.to(device=q.device, dtype=torch.int64), axis, q.dim())
    return ((q.to(torch.int64) - z) * s).float()
''',
}
