"""Held-out round 12: find_leaks calls step() once more before it starts counting
("a warm-up: the first call builds optimizer state"), so step runs n_iters + 1 times and the iterations it reports are
shifted by one. The text says: find_leaks calls step() n_iters times."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited(
    "15-09", "leaks_impl",
    ('    seen = alive()\n    born = []\n',
     '    step()  # warm-up: the first call builds optimizer state and caches\n    seen = alive()\n    born = []\n'))}
