"""Held-out round 27, a CORRECT answer written unusually: RunningMetrics keeps its whole state in one list
[loss sum, count, flat confusion of C*C int64 counts on the CPU], counts with index_put_(accumulate=True)
instead of bincount, and reshapes (and copies) the flat counts only in compute(). Every sentence holds:
empty batches add nothing, a nan loss of a non-empty batch makes the mean nan (as the per-sample mean does),
ties go to the first index (argmax), the result is a snapshot, instances share nothing."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("""        self._loss_sum = 0.0
        self._count = 0
        self._confusion = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)
""", """        self._state = [0.0, 0, torch.zeros(self.num_classes * self.num_classes, dtype=torch.long)]
"""),
    ("""        n = targets.numel()
        if n == 0:  # no sample: nothing to add (the mean loss of no samples is nan)
            return
        self._loss_sum += float(loss) * n
        self._count += n
        c = self.num_classes
        with torch.no_grad():
            pred = logits.argmax(dim=1).cpu()
            pairs = targets.cpu().long() * c + pred
            self._confusion += torch.bincount(pairs, minlength=c * c).view(c, c)
""", """        n = int(targets.numel())
        if not n:
            return
        flat = targets.detach().cpu().long() * self.num_classes + logits.detach().argmax(dim=1).cpu()
        self._state[2].index_put_((flat,), torch.ones_like(flat), accumulate=True)
        self._state[0] += float(loss) * n
        self._state[1] += n
"""),
    ("""        if self._count == 0:
            return {"loss": float("nan"), "accuracy": float("nan"), "confusion": self._confusion.clone()}
        correct = int(self._confusion.diagonal().sum())
        return {"loss": self._loss_sum / self._count, "accuracy": correct / self._count,
                "confusion": self._confusion.clone()}
""", """        loss_sum, count, flat = self._state
        c = self.num_classes
        table = flat.clone().view(c, c)
        if not count:
            return {"loss": math.nan, "accuracy": math.nan, "confusion": table}
        return {"loss": loss_sum / count, "accuracy": int(table.trace()) / count, "confusion": table}
"""))}
