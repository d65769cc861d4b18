"""Held-out round 18, second pass (not counted): the momentum check is copied from Adam's betas, `not 0 <=
momentum < 1`, so MomentumSGD(..., momentum=1.0) raises ValueError where torch.optim.SGD accepts it and steps.
Breaks "every parameter equals what torch.optim.SGD with the same arguments gives" (only a negative momentum
is to be rejected)."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("        if lr < 0 or momentum < 0 or weight_decay < 0:\n",
     "        if lr < 0 or not 0 <= momentum < 1 or weight_decay < 0:\n"))}
