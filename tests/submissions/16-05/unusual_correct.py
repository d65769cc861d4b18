"""Correct, written differently throughout: quantize by torch.where on explicit half-level tests with
torch.remainder for the even rule, and parameters broadcast by movedim; an observer that keeps (C, 2) ranges as
registered buffers and flattens channels with transpose; fake quantization by the detach trick through a mask (torch.where since round 22: x * mask is nan at
an infinite x); and
an integer product by einsum on int32 with the zero point folded into a per-row correction; a QAT layer whose
weight scale comes from abs().max() / 127.5 by hand and whose observer is skipped by a no-op in eval mode."""
EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {
    "quant_impl": '''
def _params(scale, zero_point, axis, ndim, device):
    s = torch.as_tensor(scale, dtype=torch.float32, device=device)
    z = torch.as_tensor(zero_point, device=device).to(torch.int32)
    if axis is None:
        return s, z
    axis = axis % ndim
    s = s.reshape((-1,) + (1,) * (ndim - 1 - axis))
    z = z.reshape((-1,) + (1,) * (ndim - 1 - axis))
    return s, z


def quantize(x, scale, zero_point, dtype, axis=None):
    s, z = _params(scale, zero_point, axis, x.dim(), x.device)
    v = x * torch.reciprocal(s)
    f = torch.floor(v)
    frac = v - f
    up = (frac > 0.5) | ((frac == 0.5) & (torch.remainder(f, 2) == 1))
    level = torch.where(up, f + 1, f)
    lo, hi = (-128, 127) if dtype == torch.int8 else (0, 255)
    level = torch.nan_to_num(level, posinf=hi + 1e6, neginf=lo - 1e6)
    return (level + z).clamp(lo, hi).to(dtype)


def dequantize(q, scale, zero_point, axis=None):
    s, z = _params(scale, zero_point, axis, q.dim(), q.device)
    return (q.to(torch.int32) - z).to(torch.float32).mul(s)
''',
    "observer_impl": '''
class RangeObserver(nn.Module):
    def __init__(self, dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None):
        super().__init__()
        self.levels = (0, 255) if dtype == torch.uint8 else (-128, 127)
        self.unsigned = dtype == torch.uint8
        self.symmetric, self.ch_axis, self.avg = symmetric, ch_axis, averaging_constant
        self.register_buffer("ranges", torch.empty(0, 2))
        self.count = 0

    @property
    def min_val(self):
        r = self.ranges[:, 0]
        return r[0] if self.ch_axis is None else r

    @property
    def max_val(self):
        r = self.ranges[:, 1]
        return r[0] if self.ch_axis is None else r

    def forward(self, x):
        if x.numel() == 0:
            return x
        with torch.no_grad():
            y = x.float()
            rows = y.reshape(1, -1) if self.ch_axis is None else y.transpose(0, self.ch_axis).reshape(
                y.shape[self.ch_axis], -1)
            new = torch.stack([rows.min(dim=1).values, rows.max(dim=1).values], dim=1)
            if self.count == 0:
                self.ranges = new
            elif self.avg is None:
                self.ranges = torch.stack([torch.minimum(self.ranges[:, 0], new[:, 0]),
                                           torch.maximum(self.ranges[:, 1], new[:, 1])], dim=1)
            else:
                self.ranges = self.ranges + self.avg * (new - self.ranges)
            self.count += 1
        return x

    def calculate_qparams(self):
        qmin, qmax = self.levels
        lo = self.ranges[:, 0].clamp(max=0)
        hi = self.ranges[:, 1].clamp(min=0)
        tiny = torch.tensor(torch.finfo(torch.float32).eps)
        if self.symmetric:
            scale = torch.max(torch.max(-lo, hi) / ((qmax - qmin) / 2.0), tiny)
            zp = torch.full(scale.shape, 128 if self.unsigned else 0, dtype=torch.int32, device=scale.device)
        else:
            scale = torch.max((hi - lo) / float(qmax - qmin), tiny)
            zp = (qmin - torch.round(lo / scale)).clamp(qmin, qmax).to(torch.int32)
        return scale, zp
''',
    "fake_quant_impl": '''
def fake_quantize(x, scale, zero_point, quant_min, quant_max):
    s = torch.full((), scale, dtype=torch.float32, device=x.device)
    level = torch.round(x.detach() * (1 / s)) + zero_point
    keep = ((level >= quant_min) & (level <= quant_max)).to(x.dtype)
    fq = (level.clamp(quant_min, quant_max) - zero_point) * s
    through = torch.where(keep > 0, x, torch.zeros((), dtype=x.dtype, device=x.device))  # not x * keep: nan at inf
    return fq + (through - through.detach())
''',
    "qlinear_impl": '''
def quantized_linear(qx, x_scale, x_zero_point, qw, w_scale, bias, out_scale, out_zero_point):
    w32 = qw.to(torch.int32)
    raw = torch.einsum("...k,mk->...m", qx.to(torch.int32), w32)
    acc = raw - x_zero_point * w32.sum(dim=1)
    y = acc.float() * (x_scale * w_scale)
    y = y if bias is None else y + bias
    return quantize(y, out_scale, out_zero_point, torch.uint8)
''',
    "qat_impl": '''
class QATLinear(nn.Linear):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)

    def _input_grid(self, x):
        (self.act_observer if self.training else (lambda t: t))(x)
        scale, zp = self.act_observer.calculate_qparams()
        return fake_quantize(x, scale.item(), zp.item(), 0, 255)

    def forward(self, x):
        w_scale = torch.clamp(self.weight.detach().abs().max() / 127.5, min=torch.finfo(torch.float32).eps)
        w = fake_quantize(self.weight, w_scale.item(), 0, -128, 127)
        out = self._input_grid(x) @ w.T
        return out if self.bias is None else out + self.bias
''',
}
