"""Adds the zero point before rounding: with an odd zero point, halves go to the other neighbour."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", ("torch.round(x * inv) + zero_point", "torch.round(x * inv + zero_point)"))}
