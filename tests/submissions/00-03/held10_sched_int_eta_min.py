"""Held-out round 10: past total_steps the function returns eta_min as it was passed, so a caller's integer
eta_min (0) comes back as the int 0. Breaks "returns the learning rate (a Python float)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "fail", "collate": "pass"}
CELLS = {"schedule_impl": edited(
    "00-03", "schedule_impl",
    ("        return float(eta_min)\n", "        return eta_min\n"))}
