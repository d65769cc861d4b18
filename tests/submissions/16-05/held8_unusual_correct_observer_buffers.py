"""Held-out round 8, correct: RangeObserver keeps a seen counter and computes per-channel extremes with amin / amax
over every dimension but ch_axis (no reshape), moves the averages with torch.add(..., alpha=c) on the difference,
and builds the zero point with torch.where rather than a clamp; all in float32 under torch.no_grad()."""

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": '''
class RangeObserver(nn.Module):
    def __init__(self, dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None):
        super().__init__()
        self.levels = (0, 255) if dtype == torch.uint8 else (-128, 127)
        self.symmetric, self.ch_axis, self.c, self.seen = symmetric, ch_axis, averaging_constant, 0
        self.min_val = self.max_val = None

    @torch.no_grad()
    def forward(self, x):
        if x.numel() == 0:
            return x
        t = x.float()
        if self.ch_axis is None:
            lo, hi = t.amin(), t.amax()
        else:
            axis = self.ch_axis % t.dim()
            dims = tuple(d for d in range(t.dim()) if d != axis)
            lo, hi = (t.amin(dim=dims), t.amax(dim=dims)) if dims else (t.clone(), t.clone())
        if self.seen == 0:
            self.min_val, self.max_val = lo, hi
        elif self.c is None:
            self.min_val = torch.where(lo < self.min_val, lo, self.min_val)
            self.max_val = torch.where(hi > self.max_val, hi, self.max_val)
        else:
            self.min_val = torch.add(self.min_val, lo - self.min_val, alpha=self.c)
            self.max_val = torch.add(self.max_val, hi - self.max_val, alpha=self.c)
        self.seen += 1
        return x

    @torch.no_grad()
    def calculate_qparams(self):
        qmin, qmax = self.levels
        zero = torch.zeros(1, dtype=torch.float32, device=self.min_val.device)
        lo = torch.minimum(self.min_val.reshape(-1), zero)
        hi = torch.maximum(self.max_val.reshape(-1), zero)
        eps = torch.finfo(torch.float32).eps
        if self.symmetric:
            scale = (torch.maximum(-lo, hi) / ((qmax - qmin) / 2)).clamp_min(eps)
            zp = torch.full(scale.shape, 128 if qmin == 0 else 0, dtype=torch.int64, device=scale.device)
            return scale, zp
        scale = ((hi - lo) / float(qmax - qmin)).clamp_min(eps)
        zp = qmin - torch.round(lo / scale).to(torch.int64)
        zp = torch.where(zp < qmin, torch.full_like(zp, qmin), zp)
        zp = torch.where(zp > qmax, torch.full_like(zp, qmax), zp)
        return scale, zp
'''}
