"""Held-out round 27: validates beta1 in [0, 1) but beta2 in (0, 1) ("beta2 = 0 makes v just g**2"), so
betas=(0.9, 0.0) raises ValueError. Breaks "Raise ValueError ... for a beta outside [0, 1)" (0 is inside, so
ScratchAdamW must accept it, as torch.optim.AdamW does) and "every parameter equals what torch.optim.AdamW with
the same arguments gives". Goes wrong on: ScratchAdamW(params, betas=(0.9, 0.0)) raises instead of stepping
as torch.optim.AdamW(params, betas=(0.9, 0.0)) does."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("        if not all(0.0 <= b < 1.0 for b in betas):\n",
     "        if not (0.0 <= betas[0] < 1.0 and 0.0 < betas[1] < 1.0):\n"))}
