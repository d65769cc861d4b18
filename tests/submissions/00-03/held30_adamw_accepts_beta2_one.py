"""Held-out round 30: checks beta1 in [0, 1) but beta2 only in [0, 1]. Breaks "Raise ValueError ... for a beta
outside [0, 1)": ScratchAdamW(params, betas=(0.9, 1.0)) is accepted (and divides by 1 - 1**t = 0 at the first
step). Every other argument is validated as the text says."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("        if not all(0.0 <= b < 1.0 for b in betas):\n",
     "        if not (0.0 <= betas[0] < 1.0 and 0.0 <= betas[1] <= 1.0):\n"))}
