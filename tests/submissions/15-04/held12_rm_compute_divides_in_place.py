"""Held-out round 12: the running loss sum is a float64 tensor and compute() divides it in place
(`loss = self._loss_sum; loss /= self._count`), so each call of compute() changes the state: a second
compute() (with or without updates in between) is wrong. The text: compute() returns the mean over all
samples seen."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("self._loss_sum = 0.0", "self._loss_sum = torch.zeros((), dtype=torch.float64)"),
    ("return {\"loss\": self._loss_sum / self._count,",
     "loss = self._loss_sum\n        loss /= self._count\n        return {\"loss\": float(loss),"))}
