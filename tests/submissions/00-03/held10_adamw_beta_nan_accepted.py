"""Held-out round 10: the beta check is written as `b < 0 or b >= 1`, which lets a NaN beta through although NaN
lies outside [0, 1). Breaks "Raise ValueError ... for a beta outside [0, 1)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("if not all(0.0 <= b < 1.0 for b in betas):", "if any(b < 0.0 or b >= 1.0 for b in betas):"))}
