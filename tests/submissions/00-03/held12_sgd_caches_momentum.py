"""Round 12 (held out): lr is read from the group at every step(), but each group's momentum, dampening,
weight_decay and nesterov are copied once in __init__. The text: hyperparameters changed in
self.param_groups between steps take effect, "read them at every step()" (all of them, not only lr)."""
from course.grading.class_run.submissions import edited

EXPECT = {"sgd": "fail"}
CELLS = {"sgd_impl": edited("00-03", "sgd_impl", (
    "        super().__init__(params, defaults)\n",
    "        super().__init__(params, defaults)\n"
    "        self._fixed = [(g['momentum'], g['dampening'], g['weight_decay'], g['nesterov'])\n"
    "                       for g in self.param_groups]\n"), (
    "        for group in self.param_groups:\n            mu, tau, wd = group[\"momentum\"], group[\"dampening\"], group[\"weight_decay\"]\n",
    "        for group, fixed in zip(self.param_groups, self._fixed):\n            mu, tau, wd, nest = fixed\n"), (
    "if group[\"nesterov\"] else buf", "if nest else buf"))}
