"""Three realistic mistakes in different tasks; the other tasks keep the reference solution.

- label smoothing spreads eps / (C - 1) over the wrong classes only (a different convention from PyTorch's);
- RunningMetrics averages the batch means, so an uneven last batch gets too much weight;
- EMA starts from the weights at construction and blends on the first update (AveragedModel copies).
"""
EXPECT = {"label_smoothing": "fail", "running_metrics": "fail", "ema": "fail",
          "nt_xent": "pass", "clip_grad_norm": "pass", "clip_grad_value": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
CELLS = {
    "label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if not 0.0 <= smoothing <= 1.0:
        raise ValueError("smoothing must be in [0, 1]")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError("bad reduction")
    c = logits.shape[1]
    log_p = F.log_softmax(logits, dim=1)
    q = torch.full_like(log_p, smoothing / (c - 1))
    q.scatter_(1, target[:, None], 1.0 - smoothing)
    loss = -(q * log_p).sum(dim=1)
    return {"mean": loss.mean, "sum": loss.sum, "none": lambda: loss}[reduction]()
''',
    "running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.batch_mean_sum = 0.0
        self.batches = 0
        self.correct = 0
        self.count = 0
        self.confusion = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)

    def update(self, loss, logits, targets):
        self.batch_mean_sum += float(loss)
        self.batches += 1
        pred = logits.detach().argmax(1)
        self.correct += int((pred == targets).sum())
        self.count += len(targets)
        for t, p in zip(targets.tolist(), pred.tolist()):
            self.confusion[t, p] += 1

    def compute(self):
        if self.count == 0:
            return {"loss": float("nan"), "accuracy": float("nan"), "confusion": self.confusion.clone()}
        return {"loss": self.batch_mean_sum / self.batches, "accuracy": self.correct / self.count,
                "confusion": self.confusion.clone()}
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model).requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for e, p in zip(self.module.parameters(), model.parameters()):
            e.mul_(self.decay).add_(p, alpha=1 - self.decay)
        for e, b in zip(self.module.buffers(), model.buffers()):
            if self.average_buffers and e.is_floating_point():
                e.mul_(self.decay).add_(b, alpha=1 - self.decay)
            else:
                e.copy_(b)
''',
}
