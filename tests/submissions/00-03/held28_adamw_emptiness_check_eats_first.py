"""Held-out round 28: __init__ checks for an empty parameter list with next(iter(params)) before
super().__init__. Breaks "every parameter equals what torch.optim.AdamW with the same arguments gives": with
params a generator (ScratchAdamW(model.parameters())) the first parameter is consumed by the check, lands in no
group and is never stepped. Goes right on lists and lists of group dicts."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("        if lr < 0 or eps < 0 or weight_decay < 0:\n",
     "        if next(iter(params), None) is None:\n"
     "            raise ValueError(\"ScratchAdamW got an empty parameter list\")\n"
     "        if lr < 0 or eps < 0 or weight_decay < 0:\n"))}
