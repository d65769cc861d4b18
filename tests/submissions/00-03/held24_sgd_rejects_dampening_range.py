"""Held-out round 24: MomentumSGD also "validates" dampening, raising ValueError unless 0 <= dampening <= 1.
The text lists the ValueErrors ("Raise ValueError for a negative lr, momentum or weight_decay, and for
nesterov=True unless momentum > 0 and dampening == 0") and asks that "every parameter equals what
torch.optim.SGD with the same arguments gives": torch.optim.SGD accepts any dampening when nesterov is False.
Goes wrong on MomentumSGD(params, lr=0.1, momentum=0.9, dampening=1.5) or dampening=-0.5 (nesterov False):
a ValueError where torch.optim.SGD builds and steps."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("        if nesterov and (momentum <= 0 or dampening != 0):\n",
     "        if not 0.0 <= dampening <= 1.0:\n"
     "            raise ValueError(\"dampening must lie in [0, 1]\")\n"
     "        if nesterov and (momentum <= 0 or dampening != 0):\n"))}
