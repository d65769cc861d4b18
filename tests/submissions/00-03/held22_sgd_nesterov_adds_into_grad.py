"""Held-out round 22: the Nesterov look-ahead is written in place to save memory, d.add_(buf, alpha=mu). Without
weight decay d is p.grad itself, so every Nesterov step adds mu * buf into the .grad; the parameter moves by the
right amount as long as a fresh backward comes before every step. Breaks "step() never changes a .grad" (and the
steps that follow on the same .grad)."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ('                    d = d.add(buf, alpha=mu) if group["nesterov"] else buf\n',
     '                    d = d.add_(buf, alpha=mu) if group["nesterov"] else buf\n'))}
