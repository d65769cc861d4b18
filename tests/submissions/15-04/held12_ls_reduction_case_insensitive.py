"""Held-out round 12: the reduction is matched case-insensitively (`reduction.lower()`), so "Mean",
"SUM" and "None" are accepted instead of raising. The docstring: "Raises ValueError for ... an unknown
reduction"; F.cross_entropy(reduction="Mean") raises ValueError."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("    if reduction not in (\"mean\", \"sum\", \"none\"):",
     "    reduction = str(reduction).lower()\n    if reduction not in (\"mean\", \"sum\", \"none\"):"))}
