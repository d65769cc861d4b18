"""Held-out round 8: calculate_qparams stores the range it widened to include 0 back into min_val and max_val,
so after a call on one-sided data later observations start from 0 (min-max) or move from 0 (moving average);
the text says min_val and max_val are the extremes over every tensor observed so far (or the moving average of
them), which asking for the qparams must not change."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited(
    "16-05", "observer_impl",
    ("        lo = torch.clamp(self.min_val, max=0.0).reshape(-1)\n"
     "        hi = torch.clamp(self.max_val, min=0.0).reshape(-1)\n",
     "        self.min_val = torch.clamp(self.min_val, max=0.0)\n"
     "        self.max_val = torch.clamp(self.max_val, min=0.0)\n"
     "        lo, hi = self.min_val.reshape(-1), self.max_val.reshape(-1)\n"))}
