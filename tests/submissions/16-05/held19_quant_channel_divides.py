"""Round 19: quantize multiplies by the float32 inverse per tensor, but its per-channel branch divides by the
broadcast scales, `round(x / scale)`. The two differ in the last bit, and so in the level, only for x within an
ulp of a half-way point: random per-channel inputs almost never land there. The text: "Each level is
clamp(round(x * inv) + zero_point, qmin, qmax), where inv = 1 / scale is computed in float32 from the float32
scale" and, per channel, "the result equals torch.quantize_per_channel(...).int_repr()"."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    inv = 1.0 / scale\n    return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)",
    "    if axis is not None:  # one scale per channel: divide by the broadcast scales\n"
    "        levels = torch.round(x / scale)\n"
    "    else:\n"
    "        levels = torch.round(x * (1.0 / scale))\n"
    "    return torch.clamp(levels + zero_point, info.min, info.max).to(dtype)"))}
