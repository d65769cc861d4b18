"""Held-out round 18: lr is read from the group at every step, but betas, eps and weight_decay are read the
first time step() meets a group and cached by the group's id (load_state_dict builds new group dicts, so a
resume still works). A change of those in self.param_groups between steps is ignored. Breaks "hyperparameters
changed in self.param_groups between steps ...: read them at every step()"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))\n",
     "        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))\n"
     "        self._consts = {}\n"),
    ("            lr, (b1, b2), eps, wd = group[\"lr\"], group[\"betas\"], group[\"eps\"], group[\"weight_decay\"]\n",
     "            if id(group) not in self._consts:\n"
     "                self._consts[id(group)] = (tuple(group[\"betas\"]), group[\"eps\"], group[\"weight_decay\"])\n"
     "            lr = group[\"lr\"]\n"
     "            (b1, b2), eps, wd = self._consts[id(group)]\n"))}
