"""Held-out round 30: step() skips a parameter whose .grad has no elements. Breaks "Only None skips a
parameter: one that has a .grad is stepped" and "self.state[p] holds 'exp_avg', 'exp_avg_sq' and 'step' with the
values torch.optim.AdamW keeps": an empty parameter (shape (0,)) with a .grad gets no state (torch keeps step 1
and two empty moments after one step). Every non-empty parameter is stepped exactly as torch does."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                if p.grad is None:\n                    continue\n                g = p.grad\n",
     "                if p.grad is None or p.grad.numel() == 0:\n                    continue\n"
     "                g = p.grad\n"))}
