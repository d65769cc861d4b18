"""The mask compares the unrounded value with the range: half a step past the last level that rounds back onto it
loses its gradient (and one that rounds off it keeps it)."""
from course.grading.class_run.submissions import edited

EXPECT = {"fake_quant": "fail"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "inside = (level >= quant_min) & (level <= quant_max)",
    "inside = (x * inv + zero_point >= quant_min) & (x * inv + zero_point <= quant_max)"))}
