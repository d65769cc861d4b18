"""Held-out round 12: the confusion matrix is allocated at the first update, on the logits' device; while
empty (new, or after reset()), compute() returns `torch.zeros(C, C)`, a float32 matrix. The text:
"confusion": LongTensor (C, C) ... with no samples yet ... the matrix is zeros."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("self._confusion = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)",
     "self._confusion = None"),
    ("            self._confusion += torch.bincount(pairs, minlength=c * c).view(c, c)",
     "            counts = torch.bincount(pairs, minlength=c * c).view(c, c)\n"
     "            self._confusion = counts if self._confusion is None else self._confusion + counts"),
    ("return {\"loss\": float(\"nan\"), \"accuracy\": float(\"nan\"), \"confusion\": self._confusion.clone()}",
     "return {\"loss\": float(\"nan\"), \"accuracy\": float(\"nan\"),\n"
     "                    \"confusion\": torch.zeros(self.num_classes, self.num_classes)}"))}
