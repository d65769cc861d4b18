"""Held-out round 3: quantize multiplies by the float32 inverse per tensor, but per channel it divides,
round(x / scale): the two differ in the last bit for some x, and next to a half that moves the level (the task
says inv = 1 / scale in float32 for both, so that the result equals torch.quantize_per_channel)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited(
    "16-05", "quant_impl",
    ("    inv = 1.0 / scale\n    return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)",
     "    level = torch.round(x / scale) if axis is not None else torch.round(x * (1.0 / scale))\n"
     "    return torch.clamp(level + zero_point, info.min, info.max).to(dtype)"))}
