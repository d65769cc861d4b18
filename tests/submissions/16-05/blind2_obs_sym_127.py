"""Wrong (second blind round): Symmetric scale max(-lo, hi) / 127 (the int8 half-range as students remember it) instead of / ((qmax - qmin) / 2) = / 127.5."""
EXPECT = {'observer': 'fail'}
CELLS = {
    'observer_impl': '''
class RangeObserver(nn.Module):
    def __init__(self, dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None):
        super().__init__()
        self.dtype = dtype
        self.symmetric = symmetric
        self.ch_axis = ch_axis
        self.averaging_constant = averaging_constant
        self.qmin, self.qmax = (-128, 127) if dtype == torch.int8 else (0, 255)
        self.min_val = torch.tensor(float("inf"))
        self.max_val = torch.tensor(float("-inf"))
        self.seen = False

    @torch.no_grad()
    def forward(self, x):
        if x.numel() == 0:
            return x
        xd = x.detach().to(torch.float32)
        if self.ch_axis is None:
            lo, hi = xd.min(), xd.max()
        else:
            flat = xd.movedim(self.ch_axis, 0).reshape(xd.shape[self.ch_axis], -1)
            lo, hi = flat.min(dim=1).values, flat.max(dim=1).values
        if not self.seen:
            self.min_val, self.max_val = lo.clone(), hi.clone()
            self.seen = True
        elif self.averaging_constant is None:
            self.min_val = torch.minimum(self.min_val, lo)
            self.max_val = torch.maximum(self.max_val, hi)
        else:
            c = self.averaging_constant
            self.min_val = self.min_val + c * (lo - self.min_val)
            self.max_val = self.max_val + c * (hi - self.max_val)
        return x

    def calculate_qparams(self):
        lo = torch.clamp(self.min_val, max=0.0)
        hi = torch.clamp(self.max_val, min=0.0)
        eps = torch.finfo(torch.float32).eps
        dev = lo.device
        if self.symmetric:
            m = torch.maximum(-lo, hi)
            scale = m / ((self.qmax - self.qmin) // 2)
            scale = torch.clamp(scale, min=eps)
            zp = torch.full_like(scale, 0 if self.dtype == torch.int8 else 128, dtype=torch.int64)
        else:
            scale = (hi - lo) / float(self.qmax - self.qmin)
            scale = torch.clamp(scale, min=eps)
            zp = self.qmin - torch.round(lo / scale).to(torch.int64)
            zp = torch.clamp(zp, self.qmin, self.qmax)
        return scale.reshape(-1).to(torch.float32), zp.reshape(-1)
''',
}
