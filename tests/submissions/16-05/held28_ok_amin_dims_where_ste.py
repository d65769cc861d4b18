"""Round 28, a correct answer written unusually: quantize/dequantize broadcast per-channel parameters with
movedim and index arithmetic instead of a reshape; the observer reduces with amin/amax over a tuple of the other
dims and keeps its state as buffers; fake_quantize uses the detach trick with torch.where (no autograd.Function);
quantized_linear folds the zero point with the row sums of the weight."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {
    "quant_impl": edited("16-05", "quant_impl", (
        "    if axis is not None:\n"
        "        scale, zero_point = _broadcast(scale, axis, x.dim()), _broadcast(zero_point, axis, x.dim())\n"
        "    inv = 1.0 / scale\n"
        "    return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)\n",
        "    if axis is None:\n"
        "        inv = torch.reciprocal(scale)\n"
        "        return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)\n"
        "    xm = x.movedim(axis, -1)\n"
        "    inv = torch.reciprocal(scale)\n"
        "    q = torch.clamp(torch.round(xm * inv) + zero_point, info.min, info.max).to(dtype)\n"
        "    return q.movedim(-1, axis)\n")),
    "observer_impl": edited("16-05", "observer_impl", (
        "        if self.ch_axis is None:\n"
        "            lo, hi = torch.aminmax(y)\n"
        "        else:\n"
        "            lo, hi = torch.aminmax(y.movedim(self.ch_axis, 0).flatten(1), dim=1)\n",
        "        if self.ch_axis is None:\n"
        "            lo, hi = y.amin(), y.amax()\n"
        "        else:\n"
        "            ax = self.ch_axis % y.dim()\n"
        "            dims = tuple(d for d in range(y.dim()) if d != ax)\n"
        "            lo, hi = y.amin(dim=dims), y.amax(dim=dims)\n")),
    "fake_quant_impl": edited("16-05", "fake_quant_impl", (
        "    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)\n",
        "    s = torch.tensor(scale, dtype=torch.float32, device=x.device)\n"
        "    level = torch.round(x.detach() * torch.reciprocal(s)) + zero_point\n"
        "    mask = (level >= quant_min) & (level <= quant_max)\n"
        "    value = (torch.clamp(level, quant_min, quant_max) - zero_point) * s\n"
        "    return value + torch.where(mask, x - x.detach(), torch.zeros((), dtype=x.dtype, device=x.device))\n")),
    "qlinear_impl": edited("16-05", "qlinear_impl", (
        "    acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T\n",
        "    w32 = qw.to(torch.int32)\n"
        "    acc = torch.matmul(qx.to(torch.int32), w32.T) - x_zero_point * w32.sum(dim=1, dtype=torch.int32)\n")),
}
