"""Held-out round 23: decay is validated with two comparisons, decay < 0 or decay > 1, which are both False
for nan, so EMA(model, decay=float("nan")) is accepted and every later update turns the average into nan.
The text: "A `decay` outside `[0, 1]` raises `ValueError`" (nan is not in [0, 1])."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("        if not 0.0 <= decay <= 1.0:\n",
     "        if decay < 0.0 or decay > 1.0:\n"))}
