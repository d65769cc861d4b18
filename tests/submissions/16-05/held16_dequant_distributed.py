"""Wrong: "dequantize(q, scale, zero_point, axis=None) returns the float32 tensor (q - zero_point) * scale ...
equal to PyTorch's dequantize()". This version distributes the product, q * scale - zero_point * scale: two
float32 roundings and a subtraction instead of one exact integer difference times the scale, so many values
differ from PyTorch's dequantize() in the last bits (and a level equal to the zero point need not give 0)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    return (q.to(torch.int64) - zero_point).to(torch.float32) * scale",
    "    return q.to(torch.float32) * scale - zero_point.to(torch.float32) * scale"))}
