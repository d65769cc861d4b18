"""Held-out round 9: check_gradients compares whole Jacobians by their norms, ||analytic - numeric|| <=
atol + rtol * ||numeric|| (the "relative error" of many tutorials), so one wrong small entry hides behind a
large correct one; the text says every entry must satisfy |analytic - numeric| <= atol + rtol * |numeric|,
agreeing with gradcheck."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited(
    "15-09", "gradcheck_impl",
    ("        if not bool(((analytic - num).abs() <= atol + rtol * num.abs()).all()):\n",
     "        if not bool(torch.linalg.vector_norm(analytic - num) <= atol + rtol * torch.linalg.vector_norm(num)):\n"))}
