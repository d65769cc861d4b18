"""Held-out round 11: per channel, quantize takes the inverse with scale.reciprocal_(), in place: its levels are
right, but the caller's scale tensor now holds 1 / scale (a second call with the same tensor quantizes with the
inverse); the text says both functions leave their inputs unchanged, and scale is one of quantize's inputs."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited(
    "16-05", "quant_impl",
    ("    info = torch.iinfo(dtype)\n"
     "    scale = torch.as_tensor(scale, dtype=torch.float32, device=x.device)\n",
     "    info = torch.iinfo(dtype)\n"
     "    if torch.is_tensor(scale) and scale.dtype == torch.float32:\n"
     "        inv_t = scale.reciprocal_()  # the inverse, computed once in float32\n"
     "        zero_point = torch.as_tensor(zero_point, dtype=torch.int64, device=x.device)\n"
     "        inv_t, zero_point = _broadcast(inv_t, axis, x.dim()), _broadcast(zero_point, axis, x.dim())\n"
     "        return torch.clamp(torch.round(x * inv_t) + zero_point, info.min, info.max).to(dtype)\n"
     "    scale = torch.as_tensor(scale, dtype=torch.float32, device=x.device)\n"))}
