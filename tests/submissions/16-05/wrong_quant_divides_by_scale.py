"""Divides by the scale instead of multiplying by its float32 inverse: a last-bit difference next to a half level
moves some values to the other level, so the integers are not PyTorch's."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", ("torch.round(x * inv)", "torch.round(x / scale)"))}
