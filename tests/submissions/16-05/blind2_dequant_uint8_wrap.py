"""Wrong (second blind round): dequantize subtracts the zero point on the uint8/int8 levels themselves, (q - zero_point).float(): uint8 levels below the zero point wrap around."""
EXPECT = {'quant': 'fail'}
CELLS = {
    'quant_impl': '''
def _broadcast(t, axis, ndim):
    shape = [1] * ndim
    shape[axis] = -1
    return t.reshape(shape)


def quantize(x, scale, zero_point, dtype, axis=None):
    qmin, qmax = (-128, 127) if dtype == torch.int8 else (0, 255)
    if axis is None:
        inv = 1.0 / torch.tensor(scale, dtype=torch.float32, device=x.device)
        z = zero_point
    else:
        axis = axis % x.dim()
        inv = _broadcast(1.0 / scale.to(device=x.device, dtype=torch.float32), axis, x.dim())
        z = _broadcast(zero_point.to(x.device), axis, x.dim())
    q = torch.round(x * inv) + z
    return torch.clamp(q, qmin, qmax).to(dtype)


def dequantize(q, scale, zero_point, axis=None):
    if axis is None:
        return ((q - zero_point).to(torch.float32) * scale).to(torch.float32)
    axis = axis % q.dim()
    s = _broadcast(scale.to(device=q.device, dtype=torch.float32), axis, q.dim())
    z = _broadcast(zero_point.to(q.device), axis, q.dim())
    return ((q.to(torch.float32) - z) * s).to(torch.float32)
''',
}
