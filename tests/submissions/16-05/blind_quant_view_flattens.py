"""Per tensor, x is flattened with `.view(-1)` and the result viewed back: a non-contiguous x (a transposed weight, a
slice) raises, though the text says any memory layout."""
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
        s = _broadcast(scale.to(device=x.device, dtype=torch.float32), axis, x.dim())
        z = _broadcast(zero_point.to(device=x.device, dtype=torch.int64), axis, x.dim())
    inv = 1.0 / s
    if axis is None:
        flat = x.view(-1)
        v = torch.round(flat * inv) + z
        return torch.clamp(v, qmin, qmax).to(dtype).view(x.shape)
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
