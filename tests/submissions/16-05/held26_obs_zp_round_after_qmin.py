"""Round 26: the affine zero point is rounded after qmin is subtracted, `round(qmin - lo / scale)`, instead of
`qmin - round(lo / scale)`. The same for uint8 (qmin = 0) and for every exact half (qmin = -128 is even), but for
int8 the float32 subtraction `-128 - v` rounds away the last bits of `v = lo / scale` when `|v|` is small, and a
`v` just short of a half lands on the half: int8 data with lo = -0.013916498981416225, hi = 1.0 has
lo / scale = -3.4999998, PyTorch's MinMaxObserver gives zero point -128 - (-3) = -125, this gives round(-124.5) =
-124. Breaks "zero_point = qmin - round(lo / scale), clamped to the levels" and "the result equals that of
PyTorch's observer of the same kind"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            zero_point = torch.clamp(self.qmin - torch.round(lo / scale).to(torch.int64), self.qmin, self.qmax)\n",
    "            zero_point = torch.clamp(torch.round(self.qmin - lo / scale).to(torch.int64), self.qmin, self.qmax)\n"))}
