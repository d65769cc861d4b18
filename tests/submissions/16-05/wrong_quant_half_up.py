"""Rounds halves up with floor(v + 0.5), the school rule, instead of to the even level."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", ("torch.round(x * inv)", "torch.floor(x * inv + 0.5)"))}
