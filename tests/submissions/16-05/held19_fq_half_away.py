"""Round 19: fake_quantize rounds to nearest with halves away from zero (C's round: trunc(v + 0.5 * sign(v)))
instead of halves to even. Only values exactly half way between two levels differ (2.5 -> 3 instead of 2);
the edges, where -128.5 and 127.5 land on the same levels either way, do not show it. The text: "returns the
float32 tensor (clamp(round(x * inv) + zero_point, ...) - zero_point) * scale ..., with inv and round as in
exercise 1" (round sends halves to the even neighbour)."""
from course.grading.class_run.submissions import edited

EXPECT = {"fake_quant": "fail", "quant": "pass", "observer": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "        level = torch.round(x * inv) + zero_point\n",
    "        v = x * inv\n"
    "        level = torch.trunc(v + 0.5 * torch.sign(v)) + zero_point  # round to nearest\n"))}
