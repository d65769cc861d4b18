"""Known-wrong answers, one per task, written from the notebook text.
- label smoothing: rejects smoothing == 1 (the check is 0 <= eps < 1), although [0, 1] is allowed.
- NT-Xent: computes in float32 (.float()), so float64 embeddings lose precision and get a float32 loss.
- RunningMetrics: the confusion matrix is a float tensor (torch.zeros without dtype), not a LongTensor.
- clip_grad_norm: a single tensor is not wrapped in a list, so iterating it walks its rows.
- clip_grad_value: a single tensor is not wrapped in a list either.
- EMA: uses the warm-up decay min(decay, (1 + n) / (10 + n)) of TensorFlow's ExponentialMovingAverage
  instead of the fixed decay of AveragedModel.
"""
EXPECT = {"label_smoothing": "fail", "nt_xent": "fail", "running_metrics": "fail", "clip_grad_norm": "fail",
          "clip_grad_value": "fail", "ema": "fail"}
CELLS = {
    "label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if not 0.0 <= smoothing < 1.0:
        raise ValueError(f"smoothing must be in [0, 1), got {smoothing}")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"bad reduction {reduction}")
    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)
    loss = -(1.0 - smoothing) * log_p.gather(1, target[:, None])[:, 0] - smoothing * log_p.mean(dim=1)
    return {"mean": loss.mean, "sum": loss.sum, "none": lambda: loss}[reduction]()
''',
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]).float(), dim=1)
    sim = z @ z.T / temperature
    sim.fill_diagonal_(float("-inf"))
    target = torch.cat([torch.arange(n) + n, torch.arange(n)]).to(sim.device)
    return F.cross_entropy(sim, target)
''',
    "running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.loss_total = 0.0
        self.n = 0
        self.confusion = torch.zeros(self.num_classes, self.num_classes)

    def update(self, loss, logits, targets):
        self.loss_total += float(loss) * len(targets)
        self.n += len(targets)
        preds = logits.argmax(dim=1).detach().cpu()
        for t, p in zip(targets.cpu().tolist(), preds.tolist()):
            self.confusion[t, p] += 1

    def compute(self):
        if self.n == 0:
            return {"loss": math.nan, "accuracy": math.nan, "confusion": self.confusion.clone()}
        return {"loss": self.loss_total / self.n, "accuracy": self.confusion.diag().sum().item() / self.n,
                "confusion": self.confusion.clone()}
''',
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    grads = [p.grad for p in list(parameters) if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    if norm_type == math.inf:
        total = torch.stack([g.detach().abs().max() for g in grads]).max()
    else:
        total = torch.stack([g.detach().norm(norm_type) for g in grads]).norm(norm_type)
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(coef)
    return total
''',
    "clip_value_impl": '''
def clip_grad_value(parameters, clip_value):
    for p in parameters:
        if p.grad is not None:
            p.grad.detach().clamp_(-clip_value, clip_value)
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        if not 0 <= decay <= 1:
            raise ValueError("decay must be in [0, 1]")
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model).requires_grad_(False)
        self.num_updates = 0

    @torch.no_grad()
    def update(self, model):
        d = min(self.decay, (1 + self.num_updates) / (10 + self.num_updates))
        first = self.num_updates == 0
        for e, p in zip(self.module.parameters(), model.parameters()):
            if first:
                e.copy_(p)
            else:
                e.lerp_(p, 1 - d)
        for e, b in zip(self.module.buffers(), model.buffers()):
            if self.average_buffers and not first and e.is_floating_point():
                e.lerp_(b, 1 - d)
            else:
                e.copy_(b)
        self.num_updates += 1
''',
}
