"""Held-out round 22: __init__ caches the (parameter, group dict) pairs once, for speed, and step() loops over
that cache. A scheduler that sets group["lr"] still works (the dicts are the same objects), but load_state_dict()
replaces self.param_groups with new dicts: a fresh MomentumSGD built with the initial lr and loaded from a
checkpoint whose lr a scheduler had lowered keeps stepping with the initial lr (and add_param_group's params are
never stepped). Breaks "state_dict() can be loaded into a fresh MomentumSGD ... and training continues exactly"
and "read them at every step()"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("        super().__init__(params, defaults)\n",
     "        super().__init__(params, defaults)\n"
     "        self._pairs = [(p, g) for g in self.param_groups for p in g[\"params\"]]\n"),
    ("""        for group in self.param_groups:
            mu, tau, wd = group["momentum"], group["dampening"], group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:""",
     """        for p, group in self._pairs:
            mu, tau, wd = group["momentum"], group["dampening"], group["weight_decay"]
            if True:
                if p.grad is None:"""))}
