"""Held-out round 27: the signature is MomentumSGD(params, lr, momentum=0.0, weight_decay=0.0, dampening=0.0,
nesterov=False): weight_decay and dampening swapped. Called with keywords it is right; called by position, as
the text's signature allows, the fourth argument is taken as the weight decay and the fifth as the dampening.
Breaks "Write MomentumSGD(params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False)". Goes
wrong on: MomentumSGD(params, 0.1, 0.9, 0.3, 0.01) against torch.optim.SGD(params, 0.1, 0.9, 0.3, 0.01)
(dampening 0.3, weight decay 0.01): the weights differ after the first step."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):\n",
     "    def __init__(self, params, lr, momentum=0.0, weight_decay=0.0, dampening=0.0, nesterov=False):\n"))}
