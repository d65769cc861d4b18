"""Held-out round 12: check_gradients tests |analytic - numeric| < atol + rtol·|numeric|
(strict) where the text says <= (as torch.allclose and gradcheck do): an error exactly at the tolerance is rejected."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited(
    "15-09", "gradcheck_impl",
    ('        if not bool(((analytic - num).abs() <= atol + rtol * num.abs()).all()):\n',
     '        if not bool(((analytic - num).abs() < atol + rtol * num.abs()).all()):\n'))}
