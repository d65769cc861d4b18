"""An empty tensor is recognised by `len(x) == 0`, i.e. only when its first dimension is 0: a (4, 0) tensor reaches
min() (which raises on an empty tensor) and a 0-dim tensor raises in len()."""
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
        if len(x) == 0:
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
                self.min_val = self.min_val + c * (lo - self.min_val)
                self.max_val = self.max_val + c * (hi - self.max_val)
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
