"""Held-out round 29: the decay range is checked lazily, in update() instead of __init__, so
`EMA(model, decay=1.5)` (or -0.1) constructs without error and raises ValueError only at the first update.
The text: "`EMA(model, decay=0.999, average_buffers=False)` keeps a deep copy ... A `decay` outside `[0, 1]`
raises `ValueError`" (the constructor's call)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("        if not 0.0 <= decay <= 1.0:\n            raise ValueError(f\"decay must be in [0, 1], got {decay}\")\n"
     "        self.decay = float(decay)\n",
     "        self.decay = float(decay)\n"),
    ("        first = self.num_updates == 0\n",
     "        if not 0.0 <= self.decay <= 1.0:\n"
     "            raise ValueError(f\"decay must be in [0, 1], got {self.decay}\")\n"
     "        first = self.num_updates == 0\n"))}
