"""Held-out round 11: calculate_qparams computes the scale and zero point in float64 "for accuracy" and casts
the scale to float32 at the end, so (hi - lo) is never rounded to float32 and the scale is often one unit in the
last place away from PyTorch's; the text says they are computed in float32, equal to PyTorch's observer."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited(
    "16-05", "observer_impl",
    ("        lo = torch.clamp(self.min_val, max=0.0).reshape(-1)\n"
     "        hi = torch.clamp(self.max_val, min=0.0).reshape(-1)\n",
     "        lo = torch.clamp(self.min_val, max=0.0).reshape(-1).double()\n"
     "        hi = torch.clamp(self.max_val, min=0.0).reshape(-1).double()\n"),
    ("        return scale, zero_point\n",
     "        return scale.to(torch.float32), zero_point\n"))}
