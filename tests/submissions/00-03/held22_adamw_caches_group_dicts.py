"""Held-out round 22: __init__ caches the (parameter, group dict) pairs once and step() loops over that cache.
Changing group["lr"] in place still works, but load_state_dict() replaces self.param_groups with new dicts, so a
fresh ScratchAdamW built with other hyperparameters and then loaded from a checkpoint keeps its own lr, betas, eps
and weight decay instead of the checkpoint's. Breaks "hyperparameters changed in self.param_groups between steps
(by a scheduler, or by load_state_dict()): read them at every step()"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))\n",
     "        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))\n"
     "        self._pairs = [(p, g) for g in self.param_groups for p in g[\"params\"]]\n"),
    ("""        for group in self.param_groups:
            lr, (b1, b2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:""",
     """        for p, group in self._pairs:
            lr, (b1, b2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
            if True:
                if p.grad is None:"""))}
