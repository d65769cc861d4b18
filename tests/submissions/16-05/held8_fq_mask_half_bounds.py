"""Held-out round 8: fake_quantize takes the gradient mask from the unrounded level v = x * inv + zero_point,
quant_min - 0.5 <= v < quant_max + 0.5, which agrees with the rounded level only when quant_min is even and
quant_max odd; on [-127, 127] x = -127.5 rounds to -128 (clamped, gradient 0 in PyTorch) but keeps its gradient
here. The text says the gradient passes where quant_min <= round(x * inv) + zero_point <= quant_max, for any
integer range."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "fail", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited(
    "16-05", "fake_quant_impl",
    ("inside = (level >= quant_min) & (level <= quant_max)",
     "v = x * inv + zero_point\n        inside = (v >= quant_min - 0.5) & (v < quant_max + 0.5)"))}
