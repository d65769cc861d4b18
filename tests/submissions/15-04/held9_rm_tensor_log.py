"""Held-out round 9: RunningMetrics keeps every batch's summed loss in a detached tensor that grows by one
entry per update (torch.cat), and sums it in compute(); the numbers are right, but the state grows with the
number of updates. The text says: "Store nothing that grows with the number of updates"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "fail", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("        self._loss_sum = 0.0\n",
     "        self._batch_losses = torch.zeros(0, dtype=torch.float64)\n"),
    ("        self._loss_sum += float(loss) * n\n",
     "        item = torch.tensor([float(loss) * n], dtype=torch.float64)\n"
     "        self._batch_losses = torch.cat([self._batch_losses, item])\n"),
    ("        return {\"loss\": self._loss_sum / self._count,",
     "        return {\"loss\": float(self._batch_losses.sum()) / self._count,"))}
