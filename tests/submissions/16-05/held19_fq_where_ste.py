"""Round 19, correct in an unusual way: fake_quantize without an autograd.Function. The value is computed on
x.detach() (so it is exactly the text's formula), and the straight-through gradient rides on a term that is
zero in value, torch.where(inside, x - x.detach(), 0): its derivative is 1 where the rounded level lies in
[quant_min, quant_max] and 0 elsewhere. _FakeQuantize stays in the cell, unused."""
from course.grading.class_run.submissions import edited

EXPECT = {"fake_quant": "pass", "quant": "pass", "observer": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)\n",
    "    s = torch.tensor(scale, dtype=torch.float32, device=x.device)\n"
    "    level = torch.round(x.detach() * (1.0 / s)) + zero_point\n"
    "    inside = (level >= quant_min) & (level <= quant_max)\n"
    "    value = (torch.clamp(level, quant_min, quant_max) - zero_point) * s\n"
    "    return value + torch.where(inside, x - x.detach(), torch.zeros_like(x))\n"))}
