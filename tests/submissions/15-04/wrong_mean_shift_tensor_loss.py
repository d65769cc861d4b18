"""Known-wrong answers, one per task, written from the notebook text.
- label smoothing: logsumexp "stabilised" by subtracting the row MEAN instead of the row max: fine for
  x + 100, overflows for 1000 * x.
- NT-Xent: returns a tensor of shape (1,) (mean with keepdim) instead of a 0-dim tensor.
- RunningMetrics: keeps the loss sum as a detached 0-dim tensor, so compute()["loss"] is a tensor, not a float.
- clip_grad_norm: the outer norm over the per-tensor norms is always the 2-norm, whatever norm_type says.
- clip_grad_value: assigns a clamped copy to p.grad.data, which swaps the gradient's storage instead of
  clamping the existing one.
- EMA: the deep copy keeps requires_grad=True on the averaged parameters.
"""
EXPECT = {"label_smoothing": "fail", "nt_xent": "fail", "running_metrics": "fail", "clip_grad_norm": "fail",
          "clip_grad_value": "fail", "ema": "fail"}
CELLS = {
    "label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if not (0.0 <= smoothing <= 1.0):
        raise ValueError("smoothing out of range")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError("unknown reduction")
    shifted = logits - logits.mean(dim=1, keepdim=True)
    log_p = shifted - shifted.exp().sum(dim=1, keepdim=True).log()
    nll = -log_p[torch.arange(len(target)), target]
    loss = (1 - smoothing) * nll - smoothing * log_p.mean(dim=1)
    if reduction == "none":
        return loss
    return loss.sum() if reduction == "sum" else loss.mean()
''',
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = len(z1)
    z = torch.cat([F.normalize(z1, dim=1), F.normalize(z2, dim=1)])
    s = z @ z.T / temperature
    s = torch.where(torch.eye(2 * n, dtype=torch.bool, device=s.device), torch.full_like(s, float("-inf")), s)
    idx = torch.arange(2 * n, device=s.device)
    pos = s[idx, (idx + n) % (2 * n)]
    return (torch.logsumexp(s, dim=1) - pos).mean(dim=0, keepdim=True)
''',
    "running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.loss_sum = torch.zeros((), dtype=torch.float64)
        self.count = 0
        self.conf = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)

    def update(self, loss, logits, targets):
        n = len(targets)
        self.loss_sum += torch.as_tensor(loss, dtype=torch.float64).detach().cpu() * n
        self.count += n
        pred = logits.detach().argmax(dim=1).cpu()
        c = self.num_classes
        self.conf += torch.bincount(targets.cpu().long() * c + pred, minlength=c * c).view(c, c)

    def compute(self):
        if self.count == 0:
            return {"loss": float("nan"), "accuracy": float("nan"), "confusion": self.conf.clone()}
        return {"loss": self.loss_sum / self.count,
                "accuracy": float(self.conf.diagonal().sum()) / self.count,
                "confusion": self.conf.clone()}
''',
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    norms = torch.stack([g.detach().norm(norm_type) for g in grads])
    total = norms.norm()
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(coef)
    return total
''',
    "clip_value_impl": '''
def clip_grad_value(parameters, clip_value):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    for p in parameters:
        if p.grad is None:
            continue
        p.grad.data = torch.clamp(p.grad.data, -clip_value, clip_value)
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        if not 0 <= decay <= 1:
            raise ValueError("decay must be in [0, 1]")
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model)
        self.n = 0

    def update(self, model):
        with torch.no_grad():
            for e, p in zip(self.module.parameters(), model.parameters()):
                e.copy_(p if self.n == 0 else self.decay * e + (1 - self.decay) * p)
            for e, b in zip(self.module.buffers(), model.buffers()):
                if self.average_buffers and self.n > 0 and torch.is_floating_point(e):
                    e.copy_(self.decay * e + (1 - self.decay) * b)
                else:
                    e.copy_(b)
        self.n += 1
''',
}
