"""Held-out round 8: quantize turns round(x * inv) into int32 before it adds the zero point and clamps, so a level
past 2**31 (x = 1e10 at scale 1) overflows the cast and lands on the wrong end; the text says each level is
clamp(round(x * inv) + zero_point, qmin, qmax) and that values beyond the range saturate at qmin or qmax."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited(
    "16-05", "quant_impl",
    ("return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)",
     "return torch.clamp(torch.round(x * inv).to(torch.int32) + zero_point, info.min, info.max).to(dtype)"))}
