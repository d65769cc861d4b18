"""Held-out round 8: quantized_linear scales the accumulator left to right, (acc * x_scale) * w_scale, two float32
roundings instead of one product of scales; next to a half the last-bit difference moves the output level. The
text says y = acc * (x_scale * w_scale) + bias in float32."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "fail", "qat": "pass"}
CELLS = {"qlinear_impl": edited(
    "16-05", "qlinear_impl",
    ("y = acc.to(torch.float32) * (x_scale * w_scale.to(torch.float32))",
     "y = acc.to(torch.float32) * x_scale * w_scale.to(torch.float32)"))}
