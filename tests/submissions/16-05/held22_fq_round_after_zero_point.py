"""Round 22: fake_quantize adds the zero point before rounding, round(x * inv + zero_point), "so the level is
rounded once". With an odd zero point a value exactly half way between two levels rounds to the other neighbour
(round(0.5) + 5 = 5, round(5.5) = 6). The text: "(clamp(round(x * inv) + zero_point, ...) - zero_point) * scale
... with inv and round as in exercise 1" (round, then add)."""
from course.grading.class_run.submissions import edited

EXPECT = {"fake_quant": "fail", "quant": "pass", "observer": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "        level = torch.round(x * inv) + zero_point",
    "        level = torch.round(x * inv + zero_point)  # one rounding of the shifted value"))}
