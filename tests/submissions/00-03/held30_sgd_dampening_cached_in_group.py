"""Held-out round 30: the factor 1 - dampening is computed once per group, at the group's first step, and kept
in the group dict (group.setdefault("_keep", ...)). Breaks "hyperparameters changed in self.param_groups between
steps (as a scheduler sets group['lr']): read them at every step()": after group['dampening'] is changed between
steps (e.g. 0.0 -> 0.5 with momentum 0.9), the buffer still adds (1 - old dampening) * d. Right whenever the
dampening never changes after the first step, including different dampening per group."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("            mu, tau, wd = group[\"momentum\"], group[\"dampening\"], group[\"weight_decay\"]\n",
     "            mu, wd = group[\"momentum\"], group[\"weight_decay\"]\n"
     "            keep = group.setdefault(\"_keep\", 1 - group[\"dampening\"])\n"),
    ("buf.mul_(mu).add_(d, alpha=1 - tau)", "buf.mul_(mu).add_(d, alpha=keep)"))}
