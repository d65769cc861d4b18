"""Held-out round 12: diagnose picks the exploding module with
sorted(big, key=norm)[-1]: among tied largest norms (two modules holding one tied weight report the same norm) it names
the last, not the first. The text says: "Ties go to the module that comes first in named_modules() order"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited(
    "15-09", "monitor_impl",
    ('            top = max(n for _, n in big)\n            return ("exploding", next(name for name, n in big if n == top))\n',
     '            return ("exploding", sorted(big, key=lambda item: item[1])[-1][0])\n'))}
