"""Semantic mistakes, one per task: CE averaged over N*C entries, NT-Xent that keeps each embedding's
similarity with itself, per-parameter clipping, a metric that stores every prediction, an "EMA" that is the
live model itself, and value clipping that only clamps from above."""
EXPECT = {"label_smoothing": "fail", "nt_xent": "fail", "clip_grad_norm": "fail", "ema": "fail",
          "running_metrics": "fail", "clip_grad_value": "fail"}
CELLS = {
    "label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if not 0.0 <= smoothing <= 1.0:
        raise ValueError("smoothing must be in [0, 1]")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError("bad reduction")
    c = logits.shape[1]
    log_p = F.log_softmax(logits, dim=1)
    q = F.one_hot(target, c).to(log_p.dtype) * (1 - smoothing) + smoothing / c
    terms = -(q * log_p)
    if reduction == "mean":
        return terms.mean()
    if reduction == "sum":
        return terms.sum()
    return terms.sum(1)
''',
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.T / temperature
    target = torch.cat([torch.arange(n, 2 * n), torch.arange(n)])
    return F.cross_entropy(sim, target)
''',
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    norms = [torch.linalg.vector_norm(g, norm_type) for g in grads]
    for g, n in zip(grads, norms):
        g.mul_(torch.clamp(max_norm / (n + 1e-6), max=1.0))
    return torch.linalg.vector_norm(torch.stack(norms), norm_type)
''',
    "running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.losses, self.preds, self.targets = [], [], []

    def update(self, loss, logits, targets):
        n = len(targets)
        self.losses.append(float(loss) * n)
        self.preds.append(logits.detach().argmax(1))
        self.targets.append(targets.detach())

    def compute(self):
        c = self.num_classes
        if not self.targets:
            return {"loss": float("nan"), "accuracy": float("nan"), "confusion": torch.zeros(c, c, dtype=torch.long)}
        p, t = torch.cat(self.preds), torch.cat(self.targets)
        conf = torch.bincount(t * c + p, minlength=c * c).view(c, c)
        return {"loss": sum(self.losses) / len(t), "accuracy": (p == t).double().mean().item(), "confusion": conf}
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = model
        self.started = False

    @torch.no_grad()
    def update(self, model):
        for e, p in zip(self.module.parameters(), model.parameters()):
            if self.started:
                e.lerp_(p, 1 - self.decay)
            else:
                e.copy_(p)
        self.started = True
''',
    "clip_value_impl": '''
def clip_grad_value(parameters, clip_value):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    for p in parameters:
        if p.grad is not None:
            p.grad.clamp_(max=clip_value)
''',
}
