"""Held-out round 3: calculate_qparams per tensor returns 0-dim scale and zero point (computed straight from the
0-dim min_val and max_val); the task says they have shape (1,) per tensor, as PyTorch's observers return."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited(
    "16-05", "observer_impl",
    ("lo = torch.clamp(self.min_val, max=0.0).reshape(-1)", "lo = torch.clamp(self.min_val, max=0.0)"),
    ("hi = torch.clamp(self.max_val, min=0.0).reshape(-1)", "hi = torch.clamp(self.max_val, min=0.0)"))}
