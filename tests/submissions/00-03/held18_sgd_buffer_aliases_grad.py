"""Held-out round 18: the first step stores the direction d itself as the momentum buffer instead of a copy
(torch.optim.SGD clones it). Without weight decay d is p.grad, so the buffer is the .grad tensor: the next
step's in-place buffer update writes into the .grad, and zero_grad(set_to_none=False) or a second step on the
same .grad corrupts the momentum. Breaks "step() never changes a .grad" and "every parameter equals what
torch.optim.SGD ... gives"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("                        buf = d.clone()\n", "                        buf = d\n"))}
