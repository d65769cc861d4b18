"""clip_grad_norm walks the `parameters` generator twice (the scaling loop sees nothing); RunningMetrics
keeps its counts in a class attribute shared by all instances; the EMA averages num_batches_tracked like a
float (AveragedModel(use_buffers=True) behaviour, which truncates the counter)."""
EXPECT = {"clip_grad_norm": "fail", "running_metrics": "fail", "ema": "fail",
          "label_smoothing": "pass", "nt_xent": "pass", "clip_grad_value": "pass"}
CELLS = {
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    norms = [torch.linalg.vector_norm(p.grad, norm_type) for p in parameters if p.grad is not None]
    if not norms:
        return torch.tensor(0.0)
    total = torch.stack(norms).max() if norm_type == math.inf else torch.linalg.vector_norm(torch.stack(norms), norm_type)
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for p in parameters:
        if p.grad is not None:
            p.grad.mul_(coef)
    return total
''',
    "running_metrics_impl": '''
class RunningMetrics:
    state = {"loss": 0.0, "n": 0, "correct": 0}

    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.confusion = torch.zeros(num_classes, num_classes, dtype=torch.long)

    def reset(self):
        self.state.update(loss=0.0, n=0, correct=0)
        self.confusion.zero_()

    def update(self, loss, logits, targets):
        pred = logits.detach().argmax(1)
        self.state["loss"] += float(loss) * len(targets)
        self.state["n"] += len(targets)
        self.state["correct"] += int((pred == targets).sum())
        self.confusion.index_put_((targets, pred), torch.ones_like(targets), accumulate=True)

    def compute(self):
        n = self.state["n"]
        if n == 0:
            return {"loss": float("nan"), "accuracy": float("nan"), "confusion": self.confusion.clone()}
        return {"loss": self.state["loss"] / n, "accuracy": self.state["correct"] / n,
                "confusion": self.confusion.clone()}
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model).requires_grad_(False)
        self.num_updates = 0

    @torch.no_grad()
    def update(self, model):
        first = self.num_updates == 0
        for e, p in zip(self.module.parameters(), model.parameters()):
            e.copy_(p) if first else e.lerp_(p, 1 - self.decay)
        for e, b in zip(self.module.buffers(), model.buffers()):
            if self.average_buffers and not first:
                e.copy_(e * self.decay + b * (1 - self.decay))
            else:
                e.copy_(b)
        self.num_updates += 1
''',
}
