"""Held-out round 10: step() reads lr, momentum, dampening and weight_decay from each group but takes nesterov
from self.defaults, so a group that sets its own nesterov (different from the constructor's) is stepped the
other way. Breaks "including models given as several parameter groups with different hyperparameters"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ('d = d.add(buf, alpha=mu) if group["nesterov"] else buf',
     'd = d.add(buf, alpha=mu) if self.defaults["nesterov"] else buf'))}
