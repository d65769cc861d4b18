"""Round 22, correct in an unusual way: fake_quantize without an autograd.Function, by the detach trick with the
mask applied through torch.where (so +-inf inputs, where x - x.detach() is nan, take the zero branch):
fq.detach() + where(mask, x - x.detach(), 0). Forward: the text's formula; backward: grad where the level is in
range, 0 elsewhere."""
from course.grading.class_run.submissions import edited

EXPECT = {"fake_quant": "pass", "quant": "pass", "observer": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)",
    "    s = torch.tensor(scale, dtype=torch.float32, device=x.device)\n"
    "    level = torch.round(x.detach() * (1.0 / s)) + zero_point\n"
    "    inside = (level >= quant_min) & (level <= quant_max)\n"
    "    fq = (level.clamp(quant_min, quant_max) - zero_point) * s\n"
    "    return fq + torch.where(inside, x - x.detach(), torch.zeros((), device=x.device))"))}
