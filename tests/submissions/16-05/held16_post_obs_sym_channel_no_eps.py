"""Wrong (written after the round-16 count, for the check it added): the eps floor holds per channel and in the
symmetric scheme too ("calculate_qparams() ... by the affine or symmetric formulas above with the eps floor"). This
version floors a per-tensor scale but not a per-channel symmetric one, so a symmetric per-channel observer that saw
an all-zero channel (a pruned weight row) proposes scale 0 for it."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            scale = torch.clamp(torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2), min=eps)",
    "            scale = torch.maximum(-lo, hi) / (float(self.qmax - self.qmin) / 2)\n"
    "            if self.ch_axis is None:\n"
    "                scale = torch.clamp(scale, min=eps)"))}
