"""Held-out round 23, second pass (not counted): the logits are cast to float32 before the argmax
(logits.detach().float(), "metrics need no double precision"); two float64 logits closer than float32's
resolution (1 and 1 + 1e-12) become one value, and the tie goes to the lower class where the float64 argmax
picks the larger logit. The text: "Predictions are `logits.argmax(dim=1)`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("            pred = logits.argmax(dim=1).cpu()\n",
     "            pred = logits.detach().float().argmax(dim=1).cpu()   # float32 is plenty for an argmax\n"))}
