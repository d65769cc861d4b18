"""Held-out round 13 (fixed_train, "runs one plain SGD step (torch.optim.SGD(model.parameters(), lr=lr)) per
batch on the cross-entropy of that batch alone"): the optimizer gets the usual recipe's weight_decay=5e-4,
so every step also shrinks the weights by lr·5e-4·w: not plain SGD on the cross-entropy alone (a tiny
difference per step)."""
from course.grading.class_run.submissions import edited

EXPECT = {"zoo": "fail"}
BASE = "reference"
CELLS = {"zoo_impl": edited("15-09", "zoo_impl", (
    "optimizer = torch.optim.SGD(model.parameters(), lr=lr)",
    "optimizer = torch.optim.SGD(model.parameters(), lr=lr, weight_decay=5e-4)",
))}
