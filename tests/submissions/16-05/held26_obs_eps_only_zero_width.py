"""Round 26: the eps floor is applied only to a range of width zero, `torch.where(scale == 0, eps, scale)`, as if
it existed only to avoid dividing by 0. A tensor of zeros still gets the eps scale, but a tiny nonzero range does
not: for x = [-1e-6, 1e-6] (uint8, affine) the scale is 2e-6 / 255 = 7.8e-9 and the zero point 128, where
PyTorch's MinMaxObserver gives eps = 1.19e-7 and zero point 8 (likewise symmetric: 1e-6 / 127.5 instead of eps).
Breaks "PyTorch never lets the scale fall below torch.finfo(torch.float32).eps" and "computed in float32 by the
affine or symmetric formulas above with the eps floor"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            scale = torch.clamp(torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2), min=eps)\n",
    "            scale = torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2)\n"
    "            scale = torch.where(scale == 0, eps, scale)  # a zero-width range would divide by 0\n"), (
    "            scale = torch.clamp((hi - lo) / float(self.qmax - self.qmin), min=eps)\n",
    "            scale = (hi - lo) / float(self.qmax - self.qmin)\n"
    "            scale = torch.where(scale == 0, eps, scale)  # a zero-width range would divide by 0\n"))}
