"""Held-out round 27: `average_buffers` is made keyword-only,
`def __init__(self, model, decay=0.999, *, average_buffers=False)`, so `EMA(model, 0.9, True)` raises
TypeError. The text: "`EMA(model, decay=0.999, average_buffers=False)` keeps a deep copy of `model` ..."
(the signature it fixes takes the flag by position too, as AveragedModel's callers pass `use_buffers`)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("    def __init__(self, model, decay=0.999, average_buffers=False):\n",
     "    def __init__(self, model, decay=0.999, *, average_buffers=False):\n"))}
