"""Held-out round 28: keeps running products beta1^t and beta2^t per parameter (in a dict on the optimizer,
rebuilt from beta^(t-1) when missing or out of step, so resuming works) instead of raising the current betas
to the power t. Breaks "hyperparameters changed in self.param_groups between steps ...: read them at every
step()": torch.optim.AdamW's bias correction is 1 - beta^t with the betas of this step. Goes wrong on: 3 steps
with betas (0.9, 0.999), then group["betas"] = (0.5, 0.9) (as OneCycleLR's momentum cycling does): the 4th
step uses 1 - 0.9^3*0.5 instead of 1 - 0.5^4."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                denom = v.sqrt() / math.sqrt(1 - b2 ** t) + eps\n"
     "                p.addcdiv_(m, denom, value=-lr / (1 - b1 ** t))\n",
     "                powers = self.__dict__.setdefault(\"_powers\", {})\n"
     "                pw = powers.get(p)\n"
     "                if pw is None or pw[2] != t - 1:\n"
     "                    pw = [b1 ** (t - 1), b2 ** (t - 1), t - 1]\n"
     "                pw = [pw[0] * b1, pw[1] * b2, t]\n"
     "                powers[p] = pw\n"
     "                denom = v.sqrt() / math.sqrt(1 - pw[1]) + eps\n"
     "                p.addcdiv_(m, denom, value=-lr / (1 - pw[0]))\n"))}
