"""The moving average keeps a fraction c of the old value and takes 1 - c of the new batch's extremes (the momentum
convention of BatchNorm read backwards): min_val = c * min_val + (1 - c) * x_min."""
EXPECT = {'observer': 'fail'}
CELLS = {
    'observer_impl': '''
class RangeObserver(nn.Module):
    def __init__(self, dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None):
        super().__init__()
        self.dtype, self.symmetric, self.ch_axis, self.averaging_constant = dtype, symmetric, ch_axis, averaging_constant
        self.qmin, self.qmax = (-128, 127) if dtype == torch.int8 else (0, 255)
        self.min_val = torch.tensor(float("inf"))
        self.max_val = torch.tensor(float("-inf"))
        self.seen = False

    def forward(self, x):
        if x.numel() == 0:
            return x
        with torch.no_grad():
            t = x.detach()
            if self.ch_axis is None:
                lo, hi = t.min(), t.max()
            else:
                t = t.movedim(self.ch_axis, 0).reshape(t.shape[self.ch_axis], -1)
                lo, hi = t.amin(dim=1), t.amax(dim=1)
            lo, hi = lo.float(), hi.float()
            if not self.seen:
                self.min_val, self.max_val = lo.clone(), hi.clone()
            elif self.averaging_constant is None:
                self.min_val = torch.minimum(self.min_val, lo)
                self.max_val = torch.maximum(self.max_val, hi)
            else:
                c = self.averaging_constant
                self.min_val = c * self.min_val + (1 - c) * lo
                self.max_val = c * self.max_val + (1 - c) * hi
            self.seen = True
        return x

    def calculate_qparams(self):
        lo = torch.clamp(self.min_val, max=0.0).reshape(-1)
        hi = torch.clamp(self.max_val, min=0.0).reshape(-1)
        eps = torch.finfo(torch.float32).eps
        if self.symmetric:
            scale = torch.maximum(-lo, hi) / ((self.qmax - self.qmin) / 2)
            scale = torch.clamp(scale, min=eps)
            zp = torch.full_like(scale, 0 if self.dtype == torch.int8 else 128, dtype=torch.int64)
        else:
            scale = (hi - lo) / float(self.qmax - self.qmin)
            scale = torch.clamp(scale, min=eps)
            zp = self.qmin - torch.round(lo / scale).to(torch.int64)
            zp = torch.clamp(zp, self.qmin, self.qmax)
        return scale, zp
''',
}
