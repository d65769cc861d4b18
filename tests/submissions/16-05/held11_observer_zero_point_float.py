"""Held-out round 11: calculate_qparams returns the affine zero point as a float32 tensor (qmin - round(lo /
scale) left in the scale's dtype); the text says it returns an integer tensor (int32 or int64)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited(
    "16-05", "observer_impl",
    ("            zero_point = torch.clamp(self.qmin - torch.round(lo / scale).to(torch.int64), self.qmin, self.qmax)\n",
     "            zero_point = torch.clamp(self.qmin - torch.round(lo / scale), self.qmin, self.qmax)\n"))}
