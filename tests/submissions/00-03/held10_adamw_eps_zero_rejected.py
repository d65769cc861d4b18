"""Held-out round 10: the constructor rejects eps = 0 (`eps <= 0`), which the text allows: only a negative lr, eps
or weight_decay raises ValueError (torch.optim.AdamW accepts eps = 0)."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("if lr < 0 or eps < 0 or", "if lr < 0 or eps <= 0 or"))}
