"""Round 23: dequantize distributes the scale, `q * scale - zero_point * scale`, instead of `(q - zero_point) *
scale`. In exact arithmetic the same; in float32 the two products are rounded separately and the difference is
rounded again, so the result differs from PyTorch's dequantize() in the last bits for many levels. Contradicts
"dequantize(q, scale, zero_point, axis=None) returns the float32 tensor (q - zero_point) * scale ..., equal to
PyTorch's dequantize() of the quantized tensor"."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    return (q.to(torch.int64) - zero_point).to(torch.float32) * scale",
    "    return q.to(torch.float32) * scale - zero_point.to(torch.float32) * scale"))}
