"""Held-out round 3: the affine zero point is left as the float32 result of qmin - round(lo / scale); the
task says calculate_qparams returns an integer tensor (int32 or int64) for it."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited(
    "16-05", "observer_impl",
    ("torch.round(lo / scale).to(torch.int64)", "torch.round(lo / scale)"))}
