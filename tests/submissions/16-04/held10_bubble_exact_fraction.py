"""Held-out round 10: bubble_fraction returns an exact fractions.Fraction (idle slots over S·T) instead of a
float; the text says to return the fraction "as a Python float"."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "pass", "zero1": "pass", "zero2": "pass", "zero3": "pass", "schedule": "fail", "pipeline": "pass"}
CELLS = {"schedule_impl": edited(
    "16-04", "schedule_impl",
    ("    return 1.0 - busy / (S * T)\n",
     "    from fractions import Fraction\n    return 1 - Fraction(busy, S * T)\n"))}
