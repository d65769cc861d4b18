"""Held-out round 27: decides "the first step" per optimizer (a counter self._steps), not per parameter: on the
optimizer's first step() a missing buffer is a copy of d; on any later step a missing buffer starts from zeros
and gets b = mu * 0 + (1 - tau) * d, i.e. dampening applied on that parameter's first step. torch.optim.SGD
copies d whenever the parameter has no buffer yet. Breaks "After any number of step() calls, every parameter
equals what torch.optim.SGD ... gives from the same start and the same gradients" with "on the first step the
buffer is a copy of d ... (dampening is not applied on the first step)" and "A parameter whose .grad is None ...
gets no state". Goes wrong on: two parameters, momentum 0.9, dampening 0.5; the second has .grad None on the first
step() and a gradient from the second on: its buffer is 0.5 * d instead of d, and the weights differ from
torch.optim.SGD's. (Also when a group's momentum goes from 0 to 0.9 after the first step.)"""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("        super().__init__(params, defaults)\n",
     "        super().__init__(params, defaults)\n"
     "        self._steps = 0\n"),
    ("        for group in self.param_groups:\n"
     "            mu, tau, wd",
     "        self._steps += 1\n"
     "        for group in self.param_groups:\n"
     "            mu, tau, wd"),
    ("                    if buf is None:\n"
     "                        buf = d.clone()\n"
     "                        state[\"momentum_buffer\"] = buf\n"
     "                    else:\n",
     "                    if buf is None and self._steps == 1:\n"
     "                        buf = d.clone()\n"
     "                        state[\"momentum_buffer\"] = buf\n"
     "                    else:\n"
     "                        if buf is None:\n"
     "                            buf = torch.zeros_like(p)\n"
     "                            state[\"momentum_buffer\"] = buf\n"))}
