"""Round 23, correct, written unusually: quantize moves the channel axis to the end so that the 1-D scale and
zero point broadcast without a reshape, saturates with two torch.where instead of clamp, and moves the axis back;
dequantize subtracts in int32 with torch.sub and multiplies by the float32 scale. Same float32 inverse, same
half-to-even rounding, same clamp-before-cast, so the levels and values equal PyTorch's bit for bit."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    info = torch.iinfo(dtype)\n"
    "    scale = torch.as_tensor(scale, dtype=torch.float32, device=x.device)\n"
    "    zero_point = torch.as_tensor(zero_point, dtype=torch.int64, device=x.device)\n"
    "    if axis is not None:\n"
    "        scale, zero_point = _broadcast(scale, axis, x.dim()), _broadcast(zero_point, axis, x.dim())\n"
    "    inv = 1.0 / scale\n"
    "    return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)\n",
    "    lo_q, hi_q = torch.iinfo(dtype).min, torch.iinfo(dtype).max\n"
    "    s = torch.as_tensor(scale, device=x.device).to(torch.float32)\n"
    "    z = torch.as_tensor(zero_point, device=x.device).to(torch.int64)\n"
    "    inv = torch.reciprocal(s)\n"
    "    src = x if axis is None else x.movedim(axis, -1)\n"
    "    lv = torch.round(torch.mul(src, inv)).add(z)\n"
    "    lv = torch.where(lv < lo_q, float(lo_q), lv)\n"
    "    lv = torch.where(lv > hi_q, float(hi_q), lv)\n"
    "    out = lv.to(dtype)\n"
    "    return out if axis is None else out.movedim(-1, axis)\n"), (
    "    scale = torch.as_tensor(scale, dtype=torch.float32, device=q.device)\n"
    "    zero_point = torch.as_tensor(zero_point, dtype=torch.int64, device=q.device)\n"
    "    if axis is not None:\n"
    "        scale, zero_point = _broadcast(scale, axis, q.dim()), _broadcast(zero_point, axis, q.dim())\n"
    "    return (q.to(torch.int64) - zero_point).to(torch.float32) * scale\n",
    "    s = torch.as_tensor(scale, device=q.device).to(torch.float32)\n"
    "    z = torch.as_tensor(zero_point, device=q.device).to(torch.int32)\n"
    "    src = q if axis is None else q.movedim(axis, -1)\n"
    "    out = torch.sub(src.to(torch.int32), z).to(torch.float32) * s\n"
    "    return out if axis is None else out.movedim(-1, axis)\n"))}
