"""Held-out round 8: only the affine scheme floors the scale at float32 eps; the symmetric scale of an all-zero
range is 0, although the text says calculate_qparams computes the affine or symmetric formula "with the eps
floor", as PyTorch's symmetric observers do."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited(
    "16-05", "observer_impl",
    ("scale = torch.clamp(torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2), min=eps)",
     "scale = torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2)"))}
