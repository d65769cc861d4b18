"""Round 30: when `x` does not require grad, fake_quantize "saves memory" by computing in place on `x`
(`x.mul_(inv).round_().add_(z).clamp_(qmin, qmax).sub_(z).mul_(s)`) and returns it: the values are right, but
the caller's tensor is overwritten (fake_quantize(t, 0.1, 0, -128, 127) on t = tensor([0.33, 20.0]) leaves t as
[0.3, 12.7]) and the result is `x` itself. Breaks "`x` is left unchanged"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "fail", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)\n",
    "    if not x.requires_grad:  # no graph to keep: work in place\n"
    "        s = torch.tensor(scale, dtype=torch.float32, device=x.device)\n"
    "        return x.mul_(1.0 / s).round_().add_(zero_point).clamp_(quant_min, quant_max).sub_(zero_point).mul_(s)\n"
    "    return _FakeQuantize.apply(x, scale, zero_point, quant_min, quant_max)\n"))}
