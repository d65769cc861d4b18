"""Held-out round 28: __init__ checks for an empty parameter list with next(iter(params)) before
super().__init__. Breaks "every parameter equals what torch.optim.SGD with the same arguments gives": when
params is a generator (MomentumSGD(model.parameters(), lr=0.1)), the check consumes the first parameter, which is
then in no group and never stepped (torch.optim.SGD steps it). Goes right on lists."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("        if lr < 0 or momentum < 0 or weight_decay < 0:\n",
     "        if next(iter(params), None) is None:\n"
     "            raise ValueError(\"MomentumSGD got an empty parameter list\")\n"
     "        if lr < 0 or momentum < 0 or weight_decay < 0:\n"))}
