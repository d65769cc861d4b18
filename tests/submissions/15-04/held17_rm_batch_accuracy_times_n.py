"""Held-out round 17: accuracy is accumulated like the loss, as each batch's accuracy times its size
((pred == targets).float().mean() * n). For an empty batch (B = 0) the mean of nothing is nan, and every
later accuracy is nan. The text: `logits` has shape `(B, C)`; accuracy is "a fraction in `[0, 1]`" over
"all samples seen"."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("        if n == 0:  # no sample: nothing to add (the mean loss of no samples is nan)\n            return\n", ""),
    ("        self._count = 0\n",
     "        self._count = 0\n"
     "        self._correct = 0.0\n"),
    ("            pred = logits.argmax(dim=1).cpu()\n",
     "            pred = logits.argmax(dim=1).cpu()\n"
     "            self._correct += (pred == targets.cpu()).float().mean().item() * n\n"),
    ("        correct = int(self._confusion.diagonal().sum())\n",
     "        correct = self._correct\n"))}
