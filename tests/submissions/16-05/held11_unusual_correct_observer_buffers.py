"""Held-out round 11, a correct answer written unusually: RangeObserver keeps min_val / max_val as registered
buffers that start at +inf / -inf (as PyTorch's observers do) with a flag for the first tensor, takes the
per-channel extremes with transpose(0, ch_axis).reshape(C, -1) and min/max(dim=1), and returns int32 zero points
(the text allows int32 or int64)."""

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}

CELLS = {"observer_impl": '''\
class RangeObserver(nn.Module):
    """Records the range of the tensors it sees and proposes (scale, zero_point) for int8 or uint8."""

    def __init__(self, dtype=torch.uint8, symmetric=False, ch_axis=None, averaging_constant=None):
        super().__init__()
        info = torch.iinfo(dtype)
        self.qmin, self.qmax, self.dtype = info.min, info.max, dtype
        self.symmetric, self.ch_axis, self.c = symmetric, ch_axis, averaging_constant
        self.register_buffer("min_val", torch.tensor(float("inf")))
        self.register_buffer("max_val", torch.tensor(float("-inf")))
        self.seen = False

    def forward(self, x):
        if x.numel() == 0:
            return x
        with torch.no_grad():
            y = x.detach().float()
            if self.ch_axis is None:
                lo, hi = y.min(), y.max()
            else:
                rows = y.transpose(0, self.ch_axis).reshape(y.shape[self.ch_axis], -1)
                lo, hi = rows.min(dim=1).values, rows.max(dim=1).values
            if not self.seen:
                self.min_val, self.max_val = lo.clone(), hi.clone()
            elif self.c is None:
                self.min_val, self.max_val = torch.minimum(self.min_val, lo), torch.maximum(self.max_val, hi)
            else:
                self.min_val = self.min_val + self.c * (lo - self.min_val)
                self.max_val = self.max_val + self.c * (hi - self.max_val)
            self.seen = True
        return x

    def calculate_qparams(self):
        lo = torch.minimum(self.min_val, torch.zeros_like(self.min_val)).reshape(-1)
        hi = torch.maximum(self.max_val, torch.zeros_like(self.max_val)).reshape(-1)
        eps = torch.finfo(torch.float32).eps
        if self.symmetric:
            scale = (torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2)).clamp(min=eps)
            zero_point = torch.full(scale.shape, (self.qmin + self.qmax + 1) // 2, dtype=torch.int32,
                                    device=scale.device)
        else:
            scale = ((hi - lo) / float(self.qmax - self.qmin)).clamp(min=eps)
            zero_point = (self.qmin - torch.round(lo / scale)).clamp(self.qmin, self.qmax).to(torch.int32)
        return scale, zero_point
'''}
