"""Held-out round 23: predictions are taken from the probabilities, logits.softmax(1).argmax(1); softmax
rounds logits that differ by less than its precision (float32 logits 0 and 1e-8) to equal probabilities,
and the tie then goes to the lower class, while logits.argmax picks the larger logit. The text:
"Predictions are `logits.argmax(dim=1)`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("            pred = logits.argmax(dim=1).cpu()\n",
     "            pred = logits.softmax(dim=1).argmax(dim=1).cpu()   # the most probable class\n"))}
