"""Wrong: fake_quantize returns "(clamp(round(x * inv) + zero_point, quant_min, quant_max) - zero_point) *
scale" for any float32 x (values far outside the range saturate, gradient zero). This version makes the level
an int32 before clamping ("levels are integers"): a value more than 2^31 levels away wraps (or turns into
INT_MIN) and lands on the wrong end of the range, and its mask follows the wrapped level."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "fail", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "        level = torch.round(x * inv) + zero_point\n",
    "        level = (torch.round(x * inv) + zero_point).to(torch.int32)  # levels are integers\n"))}
