"""Held-out round 14: the prediction is the most probable class, softmax(logits).argmax(1); where two logits
differ by less than the softmax can resolve (e.g. 0 and 1e-9 in float32) the probabilities tie and the lower
index wins, although logits.argmax picks the larger logit. The text: "Predictions are
`logits.argmax(dim=1)`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("            pred = logits.argmax(dim=1).cpu()\n",
     "            pred = logits.softmax(dim=1).argmax(dim=1).cpu()   # the most probable class\n"))}
