"""Correct, written unusually: the observer keeps its range as one registered (2, C) buffer (row 0 the minimum,
row 1 the maximum; C = 1 per tensor) that starts as NaN, finds each channel's extremes in a Python loop over
x.unbind(ch_axis) with torch.aminmax, folds a batch in with torch.where on the NaN start, and computes the
parameters with torch.where on the scheme rather than two branches."""
EXPECT = {"observer": "pass"}
CELLS = {
    'observer_impl': '''
class RangeObserver(nn.Module):
    """Records the range of the tensors it sees and proposes (scale, zero_point) for int8 or uint8."""

    def __init__(self, dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None):
        super().__init__()
        self.qmin, self.qmax = {torch.uint8: (0, 255), torch.int8: (-128, 127)}[dtype]
        self.dtype, self.symmetric, self.ch_axis, self.c = dtype, symmetric, ch_axis, averaging_constant
        self.register_buffer("_range", torch.full((2, 1), float("nan")))

    @property
    def min_val(self):
        r = self._range[0]
        return r[0] if self.ch_axis is None else r

    @property
    def max_val(self):
        r = self._range[1]
        return r[0] if self.ch_axis is None else r

    def forward(self, x):
        if x.numel() == 0:
            return x
        t = x.detach().to(torch.float32)
        parts = [t] if self.ch_axis is None else list(t.unbind(self.ch_axis))
        cols = [torch.stack(torch.aminmax(p)) for p in parts]
        new = torch.stack(cols, dim=1)
        old = self._range
        if old.shape != new.shape:
            old = torch.full_like(new, float("nan"))
        if self.c is None:
            merged = torch.stack([torch.minimum(old[0], new[0]), torch.maximum(old[1], new[1])])
        else:
            merged = old + self.c * (new - old)
        self._range = torch.where(torch.isnan(old), new, merged)
        return x

    def calculate_qparams(self):
        lo = self._range[0].clamp(max=0.0)
        hi = self._range[1].clamp(min=0.0)
        half = torch.tensor((self.qmax - self.qmin) / 2, dtype=torch.float32)
        width = torch.tensor(float(self.qmax - self.qmin), dtype=torch.float32)
        eps = torch.tensor(torch.finfo(torch.float32).eps)
        sym_scale = torch.maximum(torch.maximum(-lo, hi) / half, eps)
        aff_scale = torch.maximum((hi - lo) / width, eps)
        scale = sym_scale if self.symmetric else aff_scale
        aff_zp = (self.qmin - torch.round(lo / aff_scale).to(torch.int32)).clamp(self.qmin, self.qmax)
        sym_zp = torch.full_like(aff_zp, 128 if self.dtype == torch.uint8 else 0)
        return scale, torch.where(torch.tensor(self.symmetric), sym_zp, aff_zp)
''',
}
