"""Held-out round 12: the loss is kept as a tensor (`loss.detach() * n`), so the running sum lives in the
loss's dtype. With float16 losses (a model run in half precision) the sum loses its digits and overflows to
inf after a few thousand samples. The text: `loss` may be a 0-dim tensor, and compute()'s loss is "the mean
over all samples seen"."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("self._loss_sum += float(loss) * n",
     "self._loss_sum = self._loss_sum + (loss.detach() if torch.is_tensor(loss) else torch.tensor(float(loss))) * n"),
    ("return {\"loss\": self._loss_sum / self._count,",
     "return {\"loss\": float(self._loss_sum / self._count),"))}
