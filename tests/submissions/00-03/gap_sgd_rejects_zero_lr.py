"""Known-wrong MomentumSGD (gap round): raises ValueError for lr = 0, which torch.optim.SGD accepts
("Raise ValueError for a negative lr")."""
from course.grading.class_run.submissions import edited

CELLS = {"sgd_impl": edited("00-03", "sgd_impl",
    ("        if lr < 0 or momentum < 0 or weight_decay < 0:", "        if lr <= 0 or momentum < 0 or weight_decay < 0:"))}
EXPECT = {"sgd": "fail"}
