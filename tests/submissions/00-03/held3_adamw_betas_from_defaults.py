"""Wrong (held-out round 3): ScratchAdamW takes lr and weight_decay from each group but betas and eps
from self.defaults, so a group with its own betas or eps steps with the constructor's."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited("00-03", "adamw_impl", (
    'lr, (b1, b2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]',
    'lr, (b1, b2), eps, wd = group["lr"], self.defaults["betas"], self.defaults["eps"], group["weight_decay"]'))}
