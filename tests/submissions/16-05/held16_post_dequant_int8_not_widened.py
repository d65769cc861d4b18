"""Wrong (written after the round-16 count, for the check it added): "dequantize(q, scale, zero_point, axis=None)
returns the float32 tensor (q - zero_point) * scale". Reading "unsigned arithmetic wraps" as the only danger, this
version widens uint8 levels only: an int8 q minus a Python-int zero point stays int8 and wraps at -128 / 127 (per
channel the int64 zero-point tensor promotes, so only per-tensor int8 goes wrong)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    return (q.to(torch.int64) - zero_point).to(torch.float32) * scale",
    "    wide = q.to(torch.int32) if q.dtype == torch.uint8 else q  # int8 is signed already\n"
    "    return (wide - zero_point).to(torch.float32) * scale"))}
