"""Held-out round 24, second pass: ScratchAdamW also raises ValueError when lr * weight_decay > 1 ("the decay
factor 1 - lr * weight_decay would turn negative"). The text lists the ValueErrors ("Raise ValueError for a
negative lr, eps or weight_decay, and for a beta outside [0, 1)") and asks that every parameter equal what
torch.optim.AdamW with the same arguments gives; torch.optim.AdamW takes any non-negative lr and weight_decay.
Goes wrong on ScratchAdamW([p], lr=2.0, weight_decay=0.6) or lr=0.1, weight_decay=20.0: a ValueError where
torch.optim.AdamW builds and steps."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("        if not all(0.0 <= b < 1.0 for b in betas):\n",
     "        if lr * weight_decay > 1.0:\n"
     "            raise ValueError(\"lr * weight_decay must be at most 1\")\n"
     "        if not all(0.0 <= b < 1.0 for b in betas):\n"))}
