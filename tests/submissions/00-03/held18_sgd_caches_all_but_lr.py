"""Held-out round 18: the learning rate is read from the group at every step (a scheduler changes it), but
momentum, dampening and weight_decay are read once, the first time step() meets a group, and cached by the
group's id. A change of those in self.param_groups between steps is ignored. Breaks "hyperparameters changed
in self.param_groups between steps ...: read them at every step()"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("        super().__init__(params, defaults)\n",
     "        super().__init__(params, defaults)\n        self._consts = {}\n"),
    ("            mu, tau, wd = group[\"momentum\"], group[\"dampening\"], group[\"weight_decay\"]\n",
     "            if id(group) not in self._consts:\n"
     "                self._consts[id(group)] = (group[\"momentum\"], group[\"dampening\"], group[\"weight_decay\"])\n"
     "            mu, tau, wd = self._consts[id(group)]\n"))}
