"""Held-out round 9: check_gradients folds the per-input tests into ok = ok & (...).all(), so it returns a 0-dim
bool tensor (tensor(True) == True, so it looks right when printed or compared); the text says it returns a
Python bool."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited(
    "15-09", "gradcheck_impl",
    ("        if not bool(((analytic - num).abs() <= atol + rtol * num.abs()).all()):\n            ok = False\n",
     "        ok = ok & ((analytic - num).abs() <= atol + rtol * num.abs()).all()\n"))}
