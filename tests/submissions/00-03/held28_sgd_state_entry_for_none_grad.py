"""Held-out round 28: takes state = self.state[p] before checking p.grad, so every parameter without a
gradient gets an (empty) entry in self.state. Breaks "A parameter whose .grad is None is not changed and gets no
state": torch.optim.SGD never touches self.state for it. Goes wrong on: momentum 0.9, two parameters, one with
.grad None, one step: `p in opt.state` is True for the skipped one and opt.state_dict()["state"] has an entry {}
for its index (torch's has none)."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("                if p.grad is None:\n"
     "                    continue\n"
     "                d = p.grad\n",
     "                state = self.state[p]\n"
     "                if p.grad is None:\n"
     "                    continue\n"
     "                d = p.grad\n"))}
