"""Known-wrong EMA (gap round): checks `decay < 0 or decay > 1`, so decay = nan (outside [0, 1]) is accepted
and every later average is nan."""
from course.grading.class_run.submissions import edited

CELLS = {"ema_impl": edited("15-04", "ema_impl",
    ("        if not 0.0 <= decay <= 1.0:", "        if decay < 0.0 or decay > 1.0:"))}
EXPECT = {"ema": "fail"}
