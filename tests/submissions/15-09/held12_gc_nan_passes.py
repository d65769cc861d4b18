"""Held-out round 12: check_gradients looks for an entry *outside* the tolerance
((diff > tol).any()) instead of checking that every entry is inside it: a NaN entry (sqrt at 0: the numeric
column is NaN) passes. The text says: True if every entry satisfies |analytic - numeric| <= atol + rtol·|numeric|,
and agree with torch.autograd.gradcheck (which rejects it)."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited(
    "15-09", "gradcheck_impl",
    ('        if not bool(((analytic - num).abs() <= atol + rtol * num.abs()).all()):\n',
     '        if bool(((analytic - num).abs() > atol + rtol * num.abs()).any()):\n'))}
