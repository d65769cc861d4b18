"""Held-out round 28: takes state = self.state[p] before checking p.grad, so every parameter without a
gradient gets an (empty) entry in self.state. Breaks "A parameter whose .grad is None ... gets no state":
torch.optim.AdamW never touches self.state for it. Goes wrong on: two parameters, one with .grad None, one step:
`p in opt.state` is True for the skipped one and opt.state_dict()["state"] has an entry {} for its index
(torch's has none)."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                if p.grad is None:\n"
     "                    continue\n"
     "                g = p.grad\n"
     "                state = self.state[p]\n",
     "                state = self.state[p]\n"
     "                if p.grad is None:\n"
     "                    continue\n"
     "                g = p.grad\n"))}
