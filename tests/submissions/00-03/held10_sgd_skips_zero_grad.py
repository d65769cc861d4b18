"""Held-out round 10: step() treats an all-zero .grad (what zero_grad(set_to_none=False) leaves on a parameter the
forward did not use) like a missing one and skips it, so neither momentum nor weight decay moves it. Breaks
"Only None skips a parameter"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("                if p.grad is None:\n                    continue\n                d = p.grad\n",
     "                if p.grad is None or not p.grad.any():\n                    continue\n"
     "                d = p.grad\n"))}
