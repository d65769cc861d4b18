"""Held-out round 3: the symmetric zero point is the middle of the levels, int((qmin + qmax) / 2): 0 for int8
but 127 for uint8, where the task (and PyTorch) fix it at 128."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited(
    "16-05", "observer_impl",
    ("128 if self.dtype == torch.uint8 else 0", "int((self.qmin + self.qmax) / 2)"))}
