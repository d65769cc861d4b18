"""Held-out round 8: per channel, quantize inverts the caller's float32 scale tensor in place,
scale.to(torch.float32).reciprocal_() (.to returns the same tensor when it is already float32), so the levels are
right but the caller's scale now holds 1 / scale; the text says both functions leave their inputs unchanged."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited(
    "16-05", "quant_impl",
    ("    info = torch.iinfo(dtype)\n    scale = torch.as_tensor(scale, dtype=torch.float32, device=x.device)\n"
     "    zero_point = torch.as_tensor(zero_point, dtype=torch.int64, device=x.device)\n"
     "    if axis is not None:\n"
     "        scale, zero_point = _broadcast(scale, axis, x.dim()), _broadcast(zero_point, axis, x.dim())\n"
     "    inv = 1.0 / scale\n",
     "    info = torch.iinfo(dtype)\n    zero_point = torch.as_tensor(zero_point, dtype=torch.int64, device=x.device)\n"
     "    if axis is not None:\n"
     "        inv = _broadcast(scale.to(torch.float32).reciprocal_(), axis, x.dim())\n"
     "        zero_point = _broadcast(zero_point, axis, x.dim())\n"
     "    else:\n"
     "        inv = 1.0 / torch.as_tensor(scale, dtype=torch.float32, device=x.device)\n"))}
