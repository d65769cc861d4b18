"""Held-out round 11, a correct answer written unusually: fake_quantize uses the detach trick the text offers as
the alternative to an autograd.Function (the rounded values plus a pass-through that is x where the rounded level
lies in [quant_min, quant_max] and 0 elsewhere, minus its detached self), and quantize per channel moves the
axis to the end (Tensor.movedim) so the 1-D scale broadcasts without a reshape, returning a non-contiguous
result of x's shape."""
from course.grading.class_run.submissions import solution

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}

_QUANT = '''\
def _broadcast(t, axis, ndim):
    """A per-channel parameter shaped to broadcast along `axis` of an ndim-dimensional tensor."""
    shape = [1] * ndim
    shape[axis] = -1
    return t.reshape(shape)


def quantize(x, scale, zero_point, dtype, axis=None):
    """Affine quantization of float32 x to int8 or uint8 levels, per tensor or per channel."""
    info = torch.iinfo(dtype)
    scale = torch.as_tensor(scale, dtype=torch.float32, device=x.device)
    zero_point = torch.as_tensor(zero_point, dtype=torch.int64, device=x.device)
    inv = 1.0 / scale
    if axis is None:
        return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)
    last = x.movedim(axis, -1)
    levels = torch.clamp(torch.round(last * inv) + zero_point, info.min, info.max).to(dtype)
    return levels.movedim(-1, axis)


def dequantize(q, scale, zero_point, axis=None):
    """(q - zero_point) * scale in float32, per tensor or per channel."""
    scale = torch.as_tensor(scale, dtype=torch.float32, device=q.device)
    zero_point = torch.as_tensor(zero_point, dtype=torch.int64, device=q.device)
    if axis is None:
        return (q.to(torch.int64) - zero_point).to(torch.float32) * scale
    last = q.movedim(axis, -1)
    return ((last.to(torch.int64) - zero_point).to(torch.float32) * scale).movedim(-1, axis)
'''

_FQ = '''\
def fake_quantize(x, scale, zero_point, quant_min, quant_max):
    """dequantize(quantize(x)) on the grid [quant_min, quant_max], with the straight-through gradient."""
    s = torch.tensor(scale, dtype=torch.float32, device=x.device)
    inv = 1.0 / s
    level = torch.round(x.detach() * inv) + zero_point
    inside = (level >= quant_min) & (level <= quant_max)
    values = (torch.clamp(level, quant_min, quant_max) - zero_point) * s
    passed = torch.where(inside, x, torch.zeros_like(x))
    return values + (passed - passed.detach())
'''
CELLS = {"quant_impl": _QUANT, "fake_quant_impl": _FQ}
