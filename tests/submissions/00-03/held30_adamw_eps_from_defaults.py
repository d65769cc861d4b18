"""Held-out round 30: reads lr, betas and weight_decay from the group at every step but eps from self.defaults.
Breaks "including several parameter groups with different hyperparameters ... and hyperparameters changed in
self.param_groups between steps: read them at every step()": a group given eps=1e-3 (or one whose group['eps'] is
changed between steps) is stepped with the constructor's eps. Right whenever every group uses the constructor's
eps."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("lr, (b1, b2), eps, wd = group[\"lr\"], group[\"betas\"], group[\"eps\"], group[\"weight_decay\"]",
     "lr, (b1, b2), eps, wd = group[\"lr\"], group[\"betas\"], self.defaults[\"eps\"], group[\"weight_decay\"]"))}
