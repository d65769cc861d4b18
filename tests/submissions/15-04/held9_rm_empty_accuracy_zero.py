"""Held-out round 9: RunningMetrics.compute() guards only the loss against an empty metric; accuracy is
correct / max(count, 1), so before any sample it reports 0.0 instead of nan. The text says: "With no samples
yet, loss and accuracy are nan and the matrix is zeros"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "fail", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("            return {\"loss\": float(\"nan\"), \"accuracy\": float(\"nan\"), \"confusion\": self._confusion.clone()}\n",
     "            return {\"loss\": float(\"nan\"), \"accuracy\": 0.0, \"confusion\": self._confusion.clone()}\n"))}
