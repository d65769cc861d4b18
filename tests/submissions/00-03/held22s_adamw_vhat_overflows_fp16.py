"""Held-out round 22, second pass: the denominator is written as step 4 reads, sqrt(v / (1 - beta2^t)) + eps (the
reference's own line before round 22). For a float16 parameter v / (1 - beta2^t) is about g**2 in the first steps,
inf for a gradient of 256 or more, so that weight does not move, while torch.optim.AdamW divides sqrt(v) by
sqrt(1 - beta2^t) and moves it by about lr. Breaks "Float16 parameters included ... never hold g**2 or
v / (1 - beta2^t) in float16"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                denom = v.sqrt() / math.sqrt(1 - b2 ** t) + eps\n",
     "                denom = (v / (1 - b2 ** t)).sqrt() + eps\n"))}
