"""Held-out round 22, second pass, correct: the denominator sqrt(v / (1 - beta2^t)) + eps is computed in float32
for float16 and bfloat16 parameters (in float64 for float64 ones) and cast back to p's dtype, so v / (1 - beta2^t)
is never held in float16, as the float16 sentence asks, by another route than torch's sqrt(v) / sqrt(1 - beta2^t).
It must keep full marks (the float16 check may not demand torch's exact calls)."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                denom = v.sqrt() / math.sqrt(1 - b2 ** t) + eps\n",
     "                wide = v.to(torch.promote_types(v.dtype, torch.float32))\n"
     "                denom = ((wide / (1 - b2 ** t)).sqrt() + eps).to(v.dtype)\n"))}
