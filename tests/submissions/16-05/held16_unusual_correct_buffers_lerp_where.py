"""Correct, written unusually: RangeObserver keeps its range in registered buffers (assigned, never written in
place), reduces per channel with amin/amax over every other dimension (a clone for a 1-D tensor), keeps
running extremes with amin/amax over a stack, moves the average with torch.lerp, and computes the affine zero point in float32 before an int32 cast; fake_quantize is
the detach trick, out - where(mask, x.detach() - x, 0), which keeps the signed zeros of the forward formula and
passes the gradient only inside the mask; quantize broadcasts per-channel parameters with movedim."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {
    "quant_impl": edited("16-05", "quant_impl", (
        """    if axis is not None:
        scale, zero_point = _broadcast(scale, axis, x.dim()), _broadcast(zero_point, axis, x.dim())
    inv = 1.0 / scale
    return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)""",
        """    inv = torch.reciprocal(scale)
    if axis is None:
        return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)
    xm = x.movedim(axis, -1)  # channel last: the parameters broadcast from the right
    q = torch.clamp(torch.round(xm * inv) + zero_point, info.min, info.max)
    return q.movedim(-1, axis).to(dtype)""")),
    "observer_impl": edited("16-05", "observer_impl", (
        """        info = torch.iinfo(dtype)
        self.qmin, self.qmax, self.dtype = info.min, info.max, dtype
        self.symmetric, self.ch_axis, self.c = symmetric, ch_axis, averaging_constant
        self.min_val = self.max_val = None""",
        """        info = torch.iinfo(dtype)
        self.levels = (info.min, info.max)
        self.dtype, self.symmetric, self.ch_axis, self.c = dtype, symmetric, ch_axis, averaging_constant
        self.register_buffer("min_val", None)
        self.register_buffer("max_val", None)"""), (
        """        if x.numel() == 0:
            return x
        y = x.detach().to(torch.float32)
        if self.ch_axis is None:
            lo, hi = torch.aminmax(y)
        else:
            lo, hi = torch.aminmax(y.movedim(self.ch_axis, 0).flatten(1), dim=1)
        if self.min_val is None:
            self.min_val, self.max_val = lo, hi
        elif self.c is None:
            self.min_val, self.max_val = torch.minimum(self.min_val, lo), torch.maximum(self.max_val, hi)
        else:
            self.min_val = self.min_val + self.c * (lo - self.min_val)
            self.max_val = self.max_val + self.c * (hi - self.max_val)
        return x""",
        """        if x.numel() == 0:
            return x
        with torch.no_grad():
            y = x.to(torch.float32)
            if self.ch_axis is None:
                lo, hi = y.min(), y.max()
            else:
                ch = self.ch_axis % y.dim()
                others = [d for d in range(y.dim()) if d != ch]
                if others:
                    lo, hi = torch.amin(y, dim=others), torch.amax(y, dim=others)
                else:
                    lo, hi = y.clone(), y.clone()
            if self.min_val is None:
                self.min_val, self.max_val = lo, hi
            elif self.c is None:
                self.min_val = torch.stack([self.min_val, lo]).amin(0)
                self.max_val = torch.stack([self.max_val, hi]).amax(0)
            else:
                self.min_val = torch.lerp(self.min_val, lo, self.c)
                self.max_val = torch.lerp(self.max_val, hi, self.c)
        return x"""), (
        """        lo = torch.clamp(self.min_val, max=0.0).reshape(-1)
        hi = torch.clamp(self.max_val, min=0.0).reshape(-1)
        eps = torch.finfo(torch.float32).eps
        if self.symmetric:
            scale = torch.clamp(torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2), min=eps)
            zero_point = torch.full_like(scale, 128 if self.dtype == torch.uint8 else 0, dtype=torch.int64)
        else:
            scale = torch.clamp((hi - lo) / float(self.qmax - self.qmin), min=eps)
            zero_point = torch.clamp(self.qmin - torch.round(lo / scale).to(torch.int64), self.qmin, self.qmax)
        return scale, zero_point""",
        """        qmin, qmax = self.levels
        lo = self.min_val.reshape(-1).clamp_max(0.0)
        hi = self.max_val.reshape(-1).clamp_min(0.0)
        eps = torch.finfo(torch.float32).eps
        if self.symmetric:
            scale = (torch.max(-lo, hi) / ((qmax - qmin) / 2)).clamp_min(eps)
            zero_point = torch.zeros_like(scale, dtype=torch.int32) + (128 if qmin == 0 else 0)
            return scale, zero_point
        scale = ((hi - lo) / (qmax - qmin)).clamp_min(eps)
        zero_point = (qmin - torch.round(lo / scale)).clamp(qmin, qmax).to(torch.int32)
        return scale, zero_point""")),
    "fake_quant_impl": edited("16-05", "fake_quant_impl", (
        """    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)""",
        """    s = torch.tensor(scale, dtype=torch.float32, device=x.device)
    with torch.no_grad():
        level = torch.round(x * torch.reciprocal(s)) + zero_point
        inside = (level >= quant_min) & (level <= quant_max)
        out = (level.clamp(quant_min, quant_max) - zero_point) * s
    # the detach trick: the value of out, the gradient of x where the level lay inside
    return out - torch.where(inside, x.detach() - x, torch.zeros((), dtype=x.dtype, device=x.device))""")),
}
