"""Round 12 (held out): each group's lr, betas, eps and weight_decay are copied once in __init__ and used
for every step, so a scheduler's group["lr"] (or a state_dict loaded into an optimizer built with other
hyperparameters) is ignored. torch.optim.AdamW reads param_groups at every step; "continues exactly" after
loading a state_dict needs the loaded hyperparameters."""
from course.grading.class_run.submissions import edited

EXPECT = {"adamw": "fail"}
CELLS = {"adamw_impl": edited("00-03", "adamw_impl", (
    "        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))\n",
    "        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))\n"
    "        self._hp = [(g['lr'], tuple(g['betas']), g['eps'], g['weight_decay']) for g in self.param_groups]\n"), (
    "        for group in self.param_groups:\n            lr, (b1, b2), eps, wd = group[\"lr\"], group[\"betas\"], group[\"eps\"], group[\"weight_decay\"]\n",
    "        for group, hp in zip(self.param_groups, self._hp):\n            lr, (b1, b2), eps, wd = hp\n"))}
