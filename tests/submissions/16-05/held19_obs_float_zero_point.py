"""Round 19: RangeObserver.calculate_qparams returns the zero point as a float32 tensor of whole numbers (the
result of torch.round, never cast; the symmetric one from full_like(scale, ...)). Its values are right and
int(z) still works in QATLinear. The text: "calculate_qparams() returns (scale, zero_point), a float32 tensor
and an integer tensor (int32 or int64)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            zero_point = torch.full_like(scale, 128 if self.dtype == torch.uint8 else 0, dtype=torch.int64)",
    "            zero_point = torch.full_like(scale, 128 if self.dtype == torch.uint8 else 0)"), (
    "            zero_point = torch.clamp(self.qmin - torch.round(lo / scale).to(torch.int64), self.qmin, self.qmax)",
    "            zero_point = torch.clamp(self.qmin - torch.round(lo / scale), self.qmin, self.qmax)"))}
