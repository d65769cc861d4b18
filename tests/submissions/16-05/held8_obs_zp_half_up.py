"""Held-out round 8: the affine zero point rounds lo / scale half up, floor(lo / scale + 0.5), instead of with
torch.round (halves to even); for lo = -3, hi = 507 on uint8 (scale 2, lo / scale = -1.5) it gives 1 where
MinMaxObserver gives 2. The text says zero_point = qmin - round(lo / scale), and that the result equals
PyTorch's observer of the same kind."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited(
    "16-05", "observer_impl",
    ("torch.round(lo / scale).to(torch.int64)", "torch.floor(lo / scale + 0.5).to(torch.int64)"))}
