"""No clamp: the cast to int8 / uint8 wraps values beyond the range around instead of saturating."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)",
    "(torch.round(x * inv) + zero_point).to(torch.int64).to(dtype)"))}
