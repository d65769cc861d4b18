"""Held-out gap round (wrong): RunningMetrics.compute() with no samples gives loss nan but accuracy 0.0
(correct / max(total, 1)); the text says loss and accuracy are both nan when empty."""
CELLS = {"running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.loss_sum = 0.0
        self.count = 0
        self.confusion = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)

    def update(self, loss, logits, targets):
        b = targets.shape[0]
        self.loss_sum += float(loss) * b
        self.count += b
        c = self.num_classes
        pred = logits.detach().argmax(dim=1)
        idx = (targets.reshape(-1) * c + pred.reshape(-1)).cpu()
        self.confusion += torch.bincount(idx, minlength=c * c).reshape(c, c)

    def compute(self):
        loss = self.loss_sum / self.count if self.count else float("nan")
        acc = float(self.confusion.trace()) / max(self.count, 1)
        return {"loss": loss, "accuracy": acc, "confusion": self.confusion.clone()}
'''}
EXPECT = {"running_metrics": "fail"}
