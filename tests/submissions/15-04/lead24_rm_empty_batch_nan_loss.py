"""Lead, round 24: RunningMetrics adds `float(loss) * n` for every batch, the empty one included. An empty
batch's mean loss from F.cross_entropy is nan, and nan * 0 is nan, so the running loss is nan from then on. The
text: "`B` may be 0: an empty batch adds no sample, and its `loss`, which `F.cross_entropy` gives as `nan` for no
samples, counts for nothing" (the reference did this until round 24: noticed in round 23's review)."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("        if n == 0:  # no sample: nothing to add (the mean loss of no samples is nan)\n            return\n", ""))}
