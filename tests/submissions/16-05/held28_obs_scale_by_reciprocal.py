"""Round 28: the scale multiplies by the reciprocal of the level count instead of dividing,
`(hi - lo) * (1.0 / (qmax - qmin))` and `max(-lo, hi) * (2.0 / (qmax - qmin))`: the last bit of the scale
differs from PyTorch's for most ranges (about 70 % of random ones, e.g. MinMaxObserver(dtype=torch.quint8) on
randn(50)), and the zero point can follow it. Breaks "calculate_qparams() returns (scale, zero_point) ...
computed in float32 by the affine or symmetric formulas above" (scale = (hi - lo) / (qmax - qmin)) and "the
result equals that of PyTorch's observer"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            scale = torch.clamp(torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2), min=eps)\n",
    "            scale = torch.clamp(torch.maximum(-lo, hi) * (2.0 / float(self.qmax - self.qmin)), min=eps)\n"), (
    "            scale = torch.clamp((hi - lo) / float(self.qmax - self.qmin), min=eps)\n",
    "            scale = torch.clamp((hi - lo) * (1.0 / float(self.qmax - self.qmin)), min=eps)\n"))}
