"""Held-out round 8: quantize rounds halves to the even level per tensor but rounds them up per channel,
floor(x * inv + 0.5); the text says round sends halves to the even neighbour, so that per channel the result
equals torch.quantize_per_channel(...).int_repr()."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited(
    "16-05", "quant_impl",
    ("    inv = 1.0 / scale\n    return torch.clamp(torch.round(x * inv) + zero_point,",
     "    inv = 1.0 / scale\n    if axis is not None:\n"
     "        return torch.clamp(torch.floor(x * inv + 0.5) + zero_point, info.min, info.max).to(dtype)\n"
     "    return torch.clamp(torch.round(x * inv) + zero_point,"))}
