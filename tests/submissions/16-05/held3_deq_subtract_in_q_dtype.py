"""Held-out round 3: dequantize subtracts the zero point in q's own dtype, (q - zero_point).float() * scale:
per tensor the 0-dim zero point does not widen an int8 or uint8 q, so q - zero_point wraps (uint8 3 - 128 is
131), although the task says dequantize returns (q - zero_point) * scale, PyTorch's dequantize()."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited(
    "16-05", "quant_impl",
    ("return (q.to(torch.int64) - zero_point).to(torch.float32) * scale",
     "return (q - zero_point).to(torch.float32) * scale"))}
