"""Held-out round 29, follow-up found while reading the probes: RunningMetrics declares `__slots__` and keeps
the loss sum as a tensor, `self._loss_sum = self._loss_sum + loss * n`, never detached: with losses that carry a
grad_fn, every update chains the batch's whole autograd graph onto the sum, which keeps all of them alive.
The text: "Store nothing that grows with the number of updates, and nothing attached to an autograd graph".
(The probes read attributes through `__dict__` only, which a slotted object does not have.)"""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ('class RunningMetrics:\n    """Per-sample mean loss, accuracy and confusion matrix over many batches, in O(C^2) memory."""\n',
     'class RunningMetrics:\n    """Per-sample mean loss, accuracy and confusion matrix over many batches, in O(C^2) memory."""\n'
     '    __slots__ = ("num_classes", "_loss_sum", "_count", "_confusion")\n'),
    ("        self._loss_sum += float(loss) * n\n",
     "        self._loss_sum = self._loss_sum + loss * n\n"),
    ('        return {"loss": self._loss_sum / self._count,',
     '        return {"loss": float(self._loss_sum) / self._count,'))}
