"""Held-out round 24: ScratchAdamW memoises the bias corrections (1 - beta1**t, sqrt(1 - beta2**t)) in a dict
on the optimizer keyed by the step number t alone, computed with the betas of the first group that reaches t.
Breaks "several parameter groups with different hyperparameters" and "hyperparameters changed in
self.param_groups between steps ...: read them at every step()". Goes wrong on two groups with different betas
(e.g. (0.9, 0.999) and (0.5, 0.9)): the second group's parameters use the first group's corrections; and on
betas changed after step t for steps already cached."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))\n",
     "        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))\n"
     "        self._corrections = {}\n"),
    ("                denom = v.sqrt() / math.sqrt(1 - b2 ** t) + eps\n"
     "                p.addcdiv_(m, denom, value=-lr / (1 - b1 ** t))\n",
     "                if t not in self._corrections:\n"
     "                    self._corrections[t] = (1 - b1 ** t, math.sqrt(1 - b2 ** t))\n"
     "                bc1, bc2_sqrt = self._corrections[t]\n"
     "                denom = v.sqrt() / bc2_sqrt + eps\n"
     "                p.addcdiv_(m, denom, value=-lr / bc1)\n"))}
