"""API mistakes, one per task: the loss delegates to F.cross_entropy, NT-Xent forgets to normalise,
clipping scales small gradients up, the confusion matrix is transposed, the EMA update runs under autograd,
and value clipping consumes a generator before clamping."""
EXPECT = {"label_smoothing": "fail", "nt_xent": "fail", "clip_grad_norm": "fail", "ema": "fail",
          "running_metrics": "fail", "clip_grad_value": "fail"}
CELLS = {
    "label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if not 0.0 <= smoothing <= 1.0:
        raise ValueError("smoothing must be in [0, 1]")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError("bad reduction")
    return F.cross_entropy(logits, target, label_smoothing=smoothing, reduction=reduction)
''',
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = z1.shape[0]
    z = torch.cat([z1, z2])
    sim = (z @ z.T / temperature).masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
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
    if norm_type == math.inf:
        total = torch.stack([g.abs().max() for g in grads]).max()
    else:
        total = torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]).norm(norm_type)
    coef = max_norm / (total + 1e-6)
    for g in grads:
        g.mul_(coef)
    return total
''',
    "running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.total, self.n = 0.0, 0
        self.conf = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)

    def update(self, loss, logits, targets):
        self.total += float(loss) * len(targets)
        self.n += len(targets)
        pred = logits.detach().argmax(1)
        c = self.num_classes
        self.conf += torch.bincount(pred * c + targets, minlength=c * c).view(c, c)

    def compute(self):
        if self.n == 0:
            return {"loss": float("nan"), "accuracy": float("nan"), "confusion": self.conf.clone()}
        return {"loss": self.total / self.n, "accuracy": self.conf.diagonal().sum().item() / self.n,
                "confusion": self.conf.clone()}
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model)
        self.shadow = {k: v.detach().clone() for k, v in model.named_parameters()}
        self.count = 0

    def update(self, model):
        for k, p in model.named_parameters():
            if self.count == 0:
                self.shadow[k] = p.clone()
            else:
                self.shadow[k] = self.decay * self.shadow[k] + (1 - self.decay) * p
        for (k, e), b in zip(self.module.named_buffers(), model.buffers()):
            e.data.copy_(b)
        for k, e in self.module.named_parameters():
            e.data = self.shadow[k].data.clone()
        self.count += 1
''',
    "clip_value_impl": '''
def clip_grad_value(parameters, clip_value):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    n = sum(1 for p in parameters if p.grad is not None)
    for p in parameters:
        if p.grad is not None:
            p.grad.clamp_(-clip_value, clip_value)
''',
}
