"""Wrong (held-out round 3): MomentumSGD reads each group's lr, momentum, dampening, weight_decay and
nesterov once, in __init__, and steps with those copies: a scheduler (or anyone) that sets
group["lr"] between steps is ignored, where torch.optim.SGD follows its param_groups."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited("00-03", "sgd_impl", (
    "        super().__init__(params, defaults)\n",
    "        super().__init__(params, defaults)\n"
    "        self._hyper = [(g['lr'], g['momentum'], g['dampening'], g['weight_decay'], g['nesterov'])\n"
    "                       for g in self.param_groups]  # read once\n"), (
    '        for group in self.param_groups:\n            mu, tau, wd = group["momentum"], group["dampening"], group["weight_decay"]\n',
    '        for group, (lr, mu, tau, wd, nesterov) in zip(self.param_groups, self._hyper):\n'), (
    'group["nesterov"]', 'nesterov'), ('alpha=-group["lr"]', 'alpha=-lr'))}
