# Correct, written differently: the observer reduces with amin / amax over every dimension but ch_axis (no
# movedim or flatten; a 1-D per-channel input needs no reduction at all), keeps a Python flag for "nothing
# seen yet", moves the moving average with torch.lerp, and builds the qparams with torch.where.
EXPECT = {"observer": "pass"}
CELLS = {"observer_impl": '''class RangeObserver(nn.Module):
    """Records the range of the tensors it sees and proposes (scale, zero_point) for int8 or uint8."""

    def __init__(self, dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None):
        super().__init__()
        self.levels = (torch.iinfo(dtype).min, torch.iinfo(dtype).max)
        self.is_uint8 = dtype == torch.uint8
        self.symmetric, self.ch_axis, self.c = symmetric, ch_axis, averaging_constant
        self.seen = False
        self.min_val = self.max_val = None

    def _extremes(self, y):
        if self.ch_axis is None:
            return y.amin(), y.amax()
        keep = self.ch_axis % y.dim()
        others = [d for d in range(y.dim()) if d != keep]
        if not others:
            return y.clone(), y.clone()
        return y.amin(dim=others), y.amax(dim=others)

    def forward(self, x):
        if x.numel() == 0:
            return x
        with torch.no_grad():
            lo, hi = self._extremes(x.float())
            if not self.seen:
                self.min_val, self.max_val, self.seen = lo, hi, True
            elif self.c is None:
                self.min_val, self.max_val = torch.min(self.min_val, lo), torch.max(self.max_val, hi)
            else:
                self.min_val = torch.lerp(self.min_val, lo, self.c)
                self.max_val = torch.lerp(self.max_val, hi, self.c)
        return x

    def calculate_qparams(self):
        qmin, qmax = self.levels
        zero = torch.zeros((), dtype=torch.float32, device=self.min_val.device)
        lo = torch.where(self.min_val < 0, self.min_val, zero).flatten()
        hi = torch.where(self.max_val > 0, self.max_val, zero).flatten()
        tiny = torch.finfo(torch.float32).eps
        if self.symmetric:
            half = torch.tensor((qmax - qmin) / 2, dtype=torch.float32)
            raw = torch.where(-lo > hi, -lo, hi) / half
            scale = torch.where(raw > tiny, raw, torch.full_like(raw, tiny))
            zp = torch.zeros(scale.shape, dtype=torch.int32, device=scale.device) + (128 if self.is_uint8 else 0)
            return scale, zp
        raw = (hi - lo) / torch.tensor(float(qmax - qmin), dtype=torch.float32)
        scale = torch.where(raw > tiny, raw, torch.full_like(raw, tiny))
        zp = (qmin - torch.round(lo / scale)).clamp(qmin, qmax).to(torch.int32)
        return scale, zp
'''}
