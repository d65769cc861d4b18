"""Round 22: fake_quantize written with the detach trick the text mentions, "x + (fq(x) - x).detach(), multiplied
by the mask", as fq.detach() + (x - x.detach()) * mask. For finite x this is fq in the forward and mask * grad in
the backward; for x = +-inf, x - x.detach() is nan and nan * 0 stays nan, so the value is nan where the text's
formula clamps to quant_max / quant_min: "returns the float32 tensor (clamp(round(x * inv) + zero_point,
quant_min, quant_max) - zero_point) * scale", equal to torch.fake_quantize_per_tensor_affine (which gives
(quant_max - z) * scale for +inf)."""
from course.grading.class_run.submissions import edited

EXPECT = {"fake_quant": "fail", "quant": "pass", "observer": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)",
    "    inv = 1.0 / torch.tensor(scale, dtype=torch.float32, device=x.device)\n"
    "    level = torch.round(x.detach() * inv) + zero_point\n"
    "    mask = ((level >= quant_min) & (level <= quant_max)).to(x.dtype)\n"
    "    fq = (torch.clamp(level, quant_min, quant_max) - zero_point) * torch.tensor(\n"
    "        scale, dtype=torch.float32, device=x.device)\n"
    "    return fq + (x - x.detach()) * mask  # the detach trick, times the mask"))}
