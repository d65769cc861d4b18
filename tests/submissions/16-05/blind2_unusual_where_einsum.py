"""Correct (second blind round): A correct answer written differently: halves by floor/remainder, per channel by movedim, observer with aminmax/lerp and buffers, fake quantization by the detach trick through a mask (torch.where since round 22: times a mask is nan at an infinite x), an int32 einsum over K in chunks with the zero point folded in by row sums, a QAT layer that skips its observer through a lambda in eval mode."""
EXPECT = {'quant': 'pass', 'observer': 'pass', 'fake_quant': 'pass', 'qlinear': 'pass', 'qat': 'pass'}
CELLS = {
    'quant_impl': '''
def _broadcast(t, axis, ndim):
    shape = [1] * ndim
    shape[axis] = -1
    return t.reshape(shape)


def _levels(x, inv, z, lo, hi):
    v = x * inv
    fl = torch.floor(v)
    frac = v - fl
    up = (frac > 0.5) | ((frac == 0.5) & (torch.remainder(fl, 2) == 1))
    r = torch.where(up, fl + 1, fl)
    return torch.minimum(torch.maximum(r + z, torch.full_like(r, lo)), torch.full_like(r, hi))


def quantize(x, scale, zero_point, dtype, axis=None):
    lo, hi = int(torch.iinfo(dtype).min), int(torch.iinfo(dtype).max)
    if axis is None:
        s = torch.full((), scale, dtype=torch.float32, device=x.device)
        z = torch.full((), zero_point, dtype=torch.float32, device=x.device)
        return _levels(x, torch.reciprocal(s), z, lo, hi).to(dtype)
    xm = x.movedim(axis, -1)
    inv = torch.reciprocal(scale.to(x.device, torch.float32))
    out = _levels(xm, inv, zero_point.to(x.device).to(torch.float32), lo, hi)
    return out.movedim(-1, axis).to(dtype).contiguous()


def dequantize(q, scale, zero_point, axis=None):
    if axis is None:
        return torch.sub(q.to(torch.float64), zero_point).to(torch.float32).mul(scale)
    qm = q.movedim(axis, -1).to(torch.float32)
    out = (qm - zero_point.to(q.device).to(torch.float32)) * scale.to(q.device, torch.float32)
    return out.movedim(-1, axis).contiguous()
''',
    'observer_impl': '''
class RangeObserver(nn.Module):
    def __init__(self, dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None):
        super().__init__()
        info = torch.iinfo(dtype)
        self.levels = (info.min, info.max)
        self.sym_zp = 0 if info.min < 0 else 128
        self.symmetric, self.ch_axis, self.c = symmetric, ch_axis, averaging_constant
        self.register_buffer("min_val", torch.tensor(float("inf")))
        self.register_buffer("max_val", torch.tensor(float("-inf")))
        self.n = 0

    def forward(self, x):
        if x.numel() == 0:
            return x
        with torch.no_grad():
            t = x.detach().float()
            if self.ch_axis is None:
                lo, hi = torch.aminmax(t)
            else:
                t = t.transpose(0, self.ch_axis).flatten(1) if t.dim() > 1 else t.reshape(-1, 1)
                lo, hi = torch.aminmax(t, dim=1)
            if self.n == 0:
                new_lo, new_hi = lo, hi
            elif self.c is None:
                new_lo, new_hi = torch.where(lo < self.min_val, lo, self.min_val), torch.where(hi > self.max_val, hi, self.max_val)
            else:
                new_lo = torch.lerp(self.min_val, lo, self.c)
                new_hi = torch.lerp(self.max_val, hi, self.c)
            self.min_val, self.max_val = new_lo.clone(), new_hi.clone()
            self.n += 1
        return x

    def calculate_qparams(self):
        qmin, qmax = self.levels
        zero = torch.zeros_like(self.min_val)
        lo = torch.where(self.min_val < 0, self.min_val, zero).reshape(-1)
        hi = torch.where(self.max_val > 0, self.max_val, zero).reshape(-1)
        tiny = torch.tensor(torch.finfo(torch.float32).eps, device=lo.device)
        if self.symmetric:
            scale = torch.maximum(torch.maximum(-lo, hi) / torch.tensor((qmax - qmin) / 2, dtype=torch.float32), tiny)
            return scale, torch.full(scale.shape, self.sym_zp, dtype=torch.int32, device=lo.device)
        scale = torch.maximum((hi - lo) / torch.tensor(float(qmax - qmin)), tiny)
        zp = (qmin - torch.round(lo / scale)).clamp(qmin, qmax).to(torch.int32)
        return scale, zp
''',
    'fake_quant_impl': '''
class _FakeQuantize(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale, zero_point, quant_min, quant_max):
        raise RuntimeError("unused")

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("unused")


def fake_quantize(x, scale, zero_point, quant_min, quant_max):
    inv = torch.tensor(1.0, device=x.device) / torch.tensor(scale, dtype=torch.float32, device=x.device)
    with torch.no_grad():
        lv = torch.round(x * inv) + zero_point
        inside = ((lv >= quant_min) & (lv <= quant_max)).to(x.dtype)
        fq = (lv.clamp(quant_min, quant_max) - zero_point) * scale
    through = torch.where(inside > 0, x, torch.zeros((), dtype=x.dtype, device=x.device))  # not x * inside: nan at inf
    return (fq - through.detach()) + through
''',
    'qlinear_impl': '''
def quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    lead = qx.shape[:-1]
    K = qx.shape[-1]
    a = qx.reshape(-1, K).to(torch.int32)
    w = qw.to(torch.int32)
    acc = torch.zeros(a.shape[0], w.shape[0], dtype=torch.int32, device=qx.device)
    for k0 in range(0, K, 256):
        acc += torch.einsum("nk,mk->nm", a[:, k0:k0 + 256], w[:, k0:k0 + 256])
    acc -= x_zero_point * w.sum(dim=1, dtype=torch.int32)
    y = acc.float() * (torch.tensor(x_scale, device=qx.device) * w_scale.to(qx.device))
    if bias is not None:
        y = y + bias.to(qx.device)
    return quantize(y.reshape(*lead, w.shape[0]), out_scale, out_zero_point, torch.uint8)  # -1 fails on (0, K)
''',
    'qat_impl': '''
class QATLinear(nn.Linear):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        self.add_module("act_observer", RangeObserver(torch.uint8, averaging_constant=0.01))

    def forward(self, x):
        (self.act_observer if self.training else (lambda t: t))(x)
        sx, zx = self.act_observer.calculate_qparams()
        w_obs = RangeObserver(torch.int8, symmetric=True)
        _ = w_obs(self.weight)
        sw = w_obs.calculate_qparams()[0]
        return F.linear(fake_quantize(x, sx.item(), int(zx.item()), 0, 255),
                        fake_quantize(self.weight, sw.item(), 0, -128, 127), self.bias)
''',
}
