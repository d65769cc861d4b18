"""Held-out round 20: the decay is validated with `decay < 0 or decay > 1`, which lets nan through (every
comparison with nan is False); the EMA then fills the average with nan from the second update. The text: "A
`decay` outside `[0, 1]` raises `ValueError`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("        if not 0.0 <= decay <= 1.0:\n",
     "        if decay < 0.0 or decay > 1.0:\n"))}
