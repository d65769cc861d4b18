"""Per tensor, the inverse is taken in Python (double precision) from the float scale, `x * (1.0 / scale)`, and only
then meets the float32 tensor: the text says inv = 1 / scale computed in float32 from the float32 scale, and the
rounded double inverse differs from the float32 one in the last bit for many scales, which moves values next to a
half to the other level."""
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
        z = zero_point
        v = torch.round(x * (1.0 / scale)) + z
        return torch.clamp(v, qmin, qmax).to(dtype)
    else:
        s = _broadcast(scale.to(device=x.device, dtype=torch.float32), axis, x.dim())
        z = _broadcast(zero_point.to(device=x.device, dtype=torch.int64), axis, x.dim())
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
