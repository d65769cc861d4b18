"""Held-out round 22: a parameter whose gradient is all zeros is treated as "no gradient" and skipped (no decay,
no moment update, no step counted). With zero_grad(set_to_none=False), a layer unused in this step has a zero
.grad, and torch.optim.AdamW still decays it, decays its moments and keeps moving it with its old momentum.
Breaks "Only None skips a parameter"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                if p.grad is None:\n                    continue\n                g = p.grad\n",
     "                if p.grad is None or not p.grad.any():\n                    continue\n                g = p.grad\n"))}
