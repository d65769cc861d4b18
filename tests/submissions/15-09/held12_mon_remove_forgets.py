"""Held-out round 12: GradMonitor.remove() also forgets the recorded gradients, so
norms() after remove() is all zeros. The text says: remove() removes every hook, after which backward records nothing;
norms() is what was received since creation or the last clear()."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited(
    "15-09", "monitor_impl",
    ('            h.remove()\n        self.handles = []\n',
     '            h.remove()\n        self.handles = []\n        self.sums = {}\n'))}
