"""Round 28: the zero point is folded into the clamp bounds instead of being added and subtracted,
`clamp(round(x * inv), quant_min - zero_point, quant_max - zero_point) * scale`: the same levels, the same
mask, but where the level is the zero point the result is round(x * inv) * scale, which is -0.0 for x = -0.0 and
for small negative x (x = -0.1, scale 0.5: round(-0.2) = -0.0). Breaks "Where the level is the zero point the
result is +0.0, for x = -0.0 and small negative x too (never -0.0)": fake_quantize([-0.0, -0.1], 0.5, 3, -128,
127) gives [-0.0, -0.0] where PyTorch gives [0.0, 0.0]."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "fail", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "        return (torch.clamp(level, quant_min, quant_max) - zero_point) * torch.tensor(\n",
    "        return torch.clamp(torch.round(x * inv), quant_min - zero_point, quant_max - zero_point) * torch.tensor(\n"))}
