"""Requantizes by truncation (a cast after the clamp) instead of rounding: most outputs are one level low."""
from course.grading.class_run.submissions import edited

EXPECT = {"qlinear": "fail"}
CELLS = {"qlinear_impl": edited("16-05", "qlinear_impl", (
    "return quantize(y, out_scale, out_zero_point, torch.uint8)",
    "return torch.clamp(torch.trunc(y * (1.0 / torch.tensor(out_scale))) + out_zero_point, 0, 255).to(torch.uint8)"))}
