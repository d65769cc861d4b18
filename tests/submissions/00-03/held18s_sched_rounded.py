"""Held-out round 18, second pass (not counted): the rate is rounded to 10 decimals "to hide float noise",
which near the end of the cosine (rates of 1e-6 and below) is far from relative 1e-9. Breaks "equals the rate
SequentialLR(...) gives ..., to rounding (relative 1e-9)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "fail", "collate": "pass"}
CELLS = {"schedule_impl": edited(
    "00-03", "schedule_impl",
    ("    return eta_min + (base_lr - eta_min) * (1.0 + math.cos(math.pi * progress)) / 2.0\n",
     "    return round(eta_min + (base_lr - eta_min) * (1.0 + math.cos(math.pi * progress)) / 2.0, 10)\n"))}
