"""Held-out round 20: emptiness is tracked by a flag set on every update() instead of the sample count, so
after only empty batches (B = 0) compute() divides 0 by 0 and raises ZeroDivisionError. The text: "`B` may
be 0: an empty batch adds no sample"; "With no samples yet, loss and accuracy are `nan`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("        self._count = 0\n        self._confusion",
     "        self._count = 0\n        self._seen = False\n        self._confusion"),
    ("        n = targets.numel()\n",
     "        n = targets.numel()\n        self._seen = True\n"),
    ("        if self._count == 0:\n",
     "        if not self._seen:\n"))}
