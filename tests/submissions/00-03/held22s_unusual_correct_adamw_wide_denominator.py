"""Held-out round 22, second pass, correct: the denominator sqrt(v / (1 - beta2^t)) + eps is computed in float64
(round 30: float32 before, which held v / (1 - beta2^t) in float32 and made it inf for a float32 gradient of 4e19,
where torch's sqrt(v) / sqrt(1 - beta2^t) stays finite) and cast back to p's dtype, so v / (1 - beta2^t) is never
held in float16, as the float16 sentence asks, by another route than torch's sqrt(v) / sqrt(1 - beta2^t).
It must keep full marks (the float16 check may not demand torch's exact calls)."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"adamw_impl": edited(
    "00-03", "adamw_impl",
    ("                denom = v.sqrt() / math.sqrt(1 - b2 ** t) + eps\n",
     "                wide = v.to(torch.promote_types(v.dtype, torch.float64))\n"
     "                denom = ((wide / (1 - b2 ** t)).sqrt() + eps).to(v.dtype)\n"))}
