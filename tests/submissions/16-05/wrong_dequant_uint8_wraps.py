"""Subtracts the zero point in the levels' own dtype: uint8 levels below the zero point wrap around to large
numbers before the conversion to float."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "return (q.to(torch.int64) - zero_point).to(torch.float32) * scale",
    "return (q - zero_point.to(q.dtype)).to(torch.float32) * scale"))}
