"""Held-out round 27: "guards" the division: where the denominator sqrt(v_hat) + eps is exactly 0 (eps = 0 and a
gradient that has been 0 so far) it divides by 1 instead, so the weight does not move, where torch.optim.AdamW
computes 0 / 0 = nan and the weight becomes nan. Breaks "every parameter equals what torch.optim.AdamW with the
same arguments gives from the same start and the same gradients" (eps = 0 is allowed: only a negative eps
raises). Goes wrong on: eps=0.0, weight_decay 0, a float64 parameter [0, 0] with gradient [0.0, 1.0]: torch gives
[nan, -lr], this gives [0, -lr]."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                denom = v.sqrt() / math.sqrt(1 - b2 ** t) + eps\n",
     "                denom = v.sqrt() / math.sqrt(1 - b2 ** t) + eps\n"
     "                denom = torch.where(denom == 0, torch.ones_like(denom), denom)\n"))}
