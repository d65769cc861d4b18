"""Held-out round 23: the confusion matrix is accumulated in a float32 tensor (torch.zeros' default
dtype) and converted to int64 only in compute(); float32 counts stop being exact past 2**24 = 16 777 216
samples in one cell (a per-pixel metric reaches that in a few dozen images), so 2**24 + 1 samples are
counted as 2**24. The text: "`confusion[i, j]` counts samples of true class `i` predicted as `j`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("        self._confusion = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)\n",
     "        self._confusion = torch.zeros(self.num_classes, self.num_classes)\n"),
    ("            return {\"loss\": float(\"nan\"), \"accuracy\": float(\"nan\"), \"confusion\": self._confusion.clone()}\n",
     "            return {\"loss\": float(\"nan\"), \"accuracy\": float(\"nan\"), \"confusion\": self._confusion.long()}\n"),
    ("                \"confusion\": self._confusion.clone()}\n",
     "                \"confusion\": self._confusion.long()}\n"))}
