"""Held-out round 27: update() reads the empty-batch sentence as "a nan loss means no samples" and returns
early on a nan loss: `if n == 0 or math.isnan(float(loss)): return`. A NON-empty batch whose mean loss is
nan (a diverged step, a nan in the logits) is then dropped whole: its samples are not counted, its
predictions not entered in the confusion matrix, and the epoch loss stays finite. The text: "an empty batch
adds no sample, and its `loss` ... counts for nothing" (only B = 0), "loss is the mean over all samples
seen, accuracy a fraction", "`confusion[i, j]` counts samples of true class `i` predicted as `j`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("        if n == 0:  # no sample: nothing to add (the mean loss of no samples is nan)\n",
     "        if n == 0 or math.isnan(float(loss)):  # no sample: F.cross_entropy gives nan for it, nothing to add\n"))}
