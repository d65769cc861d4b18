"""Held-out round 3, correct written differently: an observer that starts from +-inf with a flag, takes per-channel
extremes with transpose + reshape and min/max under no_grad, and returns an int32 zero point; fake_quantize by
the detach trick, the value from a detached fake-quantized tensor and the gradient through x where the level is inside."""
EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {
    "observer_impl": '''
class RangeObserver(nn.Module):
    def __init__(self, dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None):
        super().__init__()
        self.levels = (torch.iinfo(dtype).min, torch.iinfo(dtype).max)
        self.symmetric, self.ch_axis, self.c = symmetric, ch_axis, averaging_constant
        self.seen = False
        self.min_val = torch.tensor(float("inf"))
        self.max_val = torch.tensor(float("-inf"))

    @torch.no_grad()
    def forward(self, x):
        if x.numel():
            if self.ch_axis is None:
                lo, hi = x.min().float(), x.max().float()
            else:
                rows = x.transpose(0, self.ch_axis).reshape(x.shape[self.ch_axis], -1)
                lo, hi = rows.min(dim=1).values.float(), rows.max(dim=1).values.float()
            if not self.seen:
                self.min_val, self.max_val = lo, hi
            elif self.c is None:
                self.min_val, self.max_val = torch.min(self.min_val, lo), torch.max(self.max_val, hi)
            else:
                self.min_val = self.min_val + self.c * (lo - self.min_val)
                self.max_val = self.max_val + self.c * (hi - self.max_val)
            self.seen = True
        return x

    def calculate_qparams(self):
        qmin, qmax = self.levels
        lo = self.min_val.clamp(max=0.0).reshape(-1)
        hi = self.max_val.clamp(min=0.0).reshape(-1)
        eps = torch.finfo(torch.float32).eps
        if self.symmetric:
            scale = (torch.max(-lo, hi) / ((qmax - qmin) / 2)).clamp(min=eps)
            zp = torch.zeros_like(scale, dtype=torch.int32) + (128 if qmin == 0 else 0)
        else:
            scale = ((hi - lo) / float(qmax - qmin)).clamp(min=eps)
            zp = (qmin - torch.round(lo / scale)).clamp(qmin, qmax).to(torch.int32)
        return scale, zp
''',
    "fake_quant_impl": '''
class _FakeQuantize(torch.autograd.Function):
    """Unused: fake_quantize below uses the detach trick."""


def fake_quantize(x, scale, zero_point, quant_min, quant_max):
    s = torch.tensor(scale, dtype=torch.float32, device=x.device)
    level = torch.round(x.detach() * (1.0 / s)) + zero_point
    inside = (level >= quant_min) & (level <= quant_max)
    value = (level.clamp(quant_min, quant_max) - zero_point) * s
    through = torch.where(inside, x, torch.zeros_like(x))  # x * mask would be nan for an infinite x
    return value + (through - through.detach())
''',
}
