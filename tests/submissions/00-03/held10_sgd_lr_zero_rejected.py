"""Held-out round 10: the constructor rejects lr = 0 (`lr <= 0`), which the text allows: only a negative lr,
momentum or weight_decay raises ValueError."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("if lr < 0 or momentum < 0", "if lr <= 0 or momentum < 0"))}
