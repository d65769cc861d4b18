"""Numerical mistakes, one per task: naive log(softmax) in both losses, clipping without the 1e-6,
EMA decay applied backwards, metrics accumulating loss tensors with their graphs, and value clipping
that trips over parameters without .grad."""
EXPECT = {"label_smoothing": "fail", "nt_xent": "fail", "clip_grad_norm": "fail", "ema": "fail",
          "running_metrics": "fail", "clip_grad_value": "fail"}
CELLS = {
    "label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if not 0.0 <= smoothing <= 1.0:
        raise ValueError("smoothing must be in [0, 1]")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError("bad reduction")
    p = logits.exp() / logits.exp().sum(dim=1, keepdim=True)
    log_p = p.log()
    loss = -(1 - smoothing) * log_p.gather(1, target[:, None]).squeeze(1) - smoothing * log_p.mean(1)
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss
''',
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    e = torch.exp(z @ z.T / temperature)
    e = e * (1 - torch.eye(2 * n, dtype=e.dtype))
    idx = torch.arange(2 * n)
    pos = e[idx, (idx + n) % (2 * n)]
    return -(pos / e.sum(1)).log().mean()
''',
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    if norm_type == math.inf:
        total = max(g.abs().max() for g in grads)
    else:
        total = torch.stack([g.norm(norm_type) for g in grads]).norm(norm_type)
    coef = min(1.0, float(max_norm / total))
    for g in grads:
        g.mul_(coef)
    return total
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model).requires_grad_(False)
        self.steps = 0

    @torch.no_grad()
    def update(self, model):
        for e, p in zip(self.module.parameters(), model.parameters()):
            if self.steps == 0:
                e.copy_(p)
            else:
                e.copy_(self.decay * p + (1 - self.decay) * e)
        for e, b in zip(self.module.buffers(), model.buffers()):
            if self.average_buffers and e.is_floating_point() and self.steps > 0:
                e.copy_(self.decay * b + (1 - self.decay) * e)
            else:
                e.copy_(b)
        self.steps += 1
''',
    "running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.loss_sum = torch.zeros((), dtype=torch.float64)
        self.n = 0
        self.conf = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)

    def update(self, loss, logits, targets):
        self.loss_sum = self.loss_sum + torch.as_tensor(loss, dtype=torch.float64) * len(targets)
        self.n += len(targets)
        pred = logits.argmax(1)
        self.conf += torch.bincount(targets * self.num_classes + pred,
                                    minlength=self.num_classes ** 2).view(self.num_classes, -1)

    def compute(self):
        if self.n == 0:
            return {"loss": float("nan"), "accuracy": float("nan"), "confusion": self.conf.clone()}
        return {"loss": float(self.loss_sum) / self.n, "accuracy": float(self.conf.trace()) / self.n,
                "confusion": self.conf.clone()}
''',
    "clip_value_impl": '''
def clip_grad_value(parameters, clip_value):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    for p in parameters:
        p.grad.clamp_(-clip_value, clip_value)
''',
}
