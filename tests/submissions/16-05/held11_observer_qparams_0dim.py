"""Held-out round 11: per tensor, calculate_qparams returns a 0-dim scale and zero point (it never reshapes the
0-dim range); the text says they have shape (1,) per tensor, (C,) per channel, as PyTorch's observers give."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited(
    "16-05", "observer_impl",
    ("        lo = torch.clamp(self.min_val, max=0.0).reshape(-1)\n"
     "        hi = torch.clamp(self.max_val, min=0.0).reshape(-1)\n",
     "        lo = torch.clamp(self.min_val, max=0.0)\n"
     "        hi = torch.clamp(self.max_val, min=0.0)\n"))}
