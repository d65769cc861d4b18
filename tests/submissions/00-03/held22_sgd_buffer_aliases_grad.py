"""Held-out round 22: on the first step the momentum buffer is taken as d.detach() (the student believes detach
copies) instead of a clone, so without weight decay the buffer IS p.grad. The next step's buf.mul_(mu).add_(d)
then writes into that tensor: when the same .grad is stepped again it changes the .grad, and a training loop that
zeroes grads in place (zero_grad(set_to_none=False)) zeroes the momentum buffer too. Breaks "step() never changes
a .grad" and "After any number of step() calls, every parameter equals what torch.optim.SGD ... gives"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("                        buf = d.clone()\n", "                        buf = d.detach()\n"))}
