"""Wrong: "calculate_qparams() returns (scale, zero_point) ... computed in float32 by the affine or symmetric
formulas above with the eps floor" ("PyTorch never lets the scale fall below torch.finfo(torch.float32).eps").
This version floors the affine scale only ("a symmetric weight range is never empty"): an all-zero tensor, or
an all-zero channel (a pruned row) of a symmetric per-channel observer, gets scale 0."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            scale = torch.clamp(torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2), min=eps)",
    "            scale = torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2)"))}
