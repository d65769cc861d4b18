"""Held-out gap round (wrong): RunningMetrics.compute() with no samples returns the confusion matrix as
torch.zeros(C, C), a float32 tensor, not the LongTensor the text promises (after updates it is int64)."""
CELLS = {"running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.loss_sum = 0.0
        self.count = 0
        self.confusion = None

    def update(self, loss, logits, targets):
        b = targets.shape[0]
        self.loss_sum += float(loss) * b
        self.count += b
        c = self.num_classes
        pred = logits.detach().argmax(dim=1)
        counts = torch.bincount(targets.reshape(-1) * c + pred.reshape(-1), minlength=c * c).reshape(c, c).cpu()
        self.confusion = counts if self.confusion is None else self.confusion + counts

    def compute(self):
        c = self.num_classes
        if self.count == 0:
            return {"loss": float("nan"), "accuracy": float("nan"), "confusion": torch.zeros(c, c)}
        conf = self.confusion.clone()
        return {"loss": self.loss_sum / self.count, "accuracy": float(conf.trace()) / self.count,
                "confusion": conf}
'''}
EXPECT = {"running_metrics": "fail"}
