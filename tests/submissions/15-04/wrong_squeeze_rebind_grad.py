"""Known-wrong answers, one per task, written from the notebook text.
- label smoothing: the gathered NLL keeps shape (N, 1), so adding the (N,) smoothing term broadcasts to
  (N, N); "mean" happens to agree, "sum" and "none" do not.
- NT-Xent: F.normalize along dim 0 (each feature column) instead of each embedding row.
- RunningMetrics: the batch loss is read with loss.item(), which breaks for a plain Python float.
- clip_grad_norm: rebinds p.grad to a new scaled tensor instead of scaling the existing one in place.
- clip_grad_value: rebinds p.grad to a clamped copy instead of clamping in place.
- EMA: with average_buffers=True the float buffers are blended already on the first update.
"""
EXPECT = {"label_smoothing": "fail", "nt_xent": "fail", "running_metrics": "fail", "clip_grad_norm": "fail",
          "clip_grad_value": "fail", "ema": "fail"}
CELLS = {
    "label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if smoothing < 0 or smoothing > 1:
        raise ValueError("smoothing must lie in [0, 1]")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError("reduction must be mean, sum or none")
    log_p = F.log_softmax(logits, dim=1)
    nll = -log_p.gather(1, target.view(-1, 1))
    smooth = -log_p.mean(dim=1)
    loss = (1 - smoothing) * nll + smoothing * smooth
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss
''',
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=0)
    logits = z @ z.t() / temperature
    logits = logits.masked_fill(torch.eye(2 * n, dtype=torch.bool, device=z.device), float("-inf"))
    labels = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(logits, labels)
''',
    "running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.total_loss = 0.0
        self.seen = 0
        self.matrix = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)

    def update(self, loss, logits, targets):
        b = targets.shape[0]
        self.total_loss += loss.item() * b
        self.seen += b
        pred = logits.detach().argmax(dim=1).cpu()
        idx = targets.detach().cpu().long() * self.num_classes + pred
        self.matrix += torch.bincount(idx, minlength=self.num_classes ** 2).reshape(self.num_classes, -1)

    def compute(self):
        if self.seen == 0:
            return {"loss": float("nan"), "accuracy": float("nan"), "confusion": self.matrix.clone()}
        return {"loss": self.total_loss / self.seen, "accuracy": self.matrix.trace().item() / self.seen,
                "confusion": self.matrix.clone()}
''',
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    params = [p for p in params if p.grad is not None]
    if not params:
        return torch.tensor(0.0)
    if norm_type == float("inf"):
        total = torch.stack([p.grad.detach().abs().max() for p in params]).max()
    else:
        total = torch.linalg.vector_norm(
            torch.stack([torch.linalg.vector_norm(p.grad.detach(), norm_type) for p in params]), norm_type)
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    for p in params:
        p.grad = p.grad.detach() * coef.to(p.grad.dtype)
    return total
''',
    "clip_value_impl": '''
def clip_grad_value(parameters, clip_value):
    params = [parameters] if isinstance(parameters, torch.Tensor) else parameters
    for p in params:
        if p.grad is not None:
            p.grad = p.grad.clamp(-clip_value, clip_value)
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        if not 0 <= decay <= 1:
            raise ValueError("decay must be in [0, 1]")
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model)
        self.module.requires_grad_(False)
        self.updates = 0

    @torch.no_grad()
    def update(self, model):
        for e, p in zip(self.module.parameters(), model.parameters()):
            if self.updates == 0:
                e.copy_(p)
            else:
                e.mul_(self.decay).add_(p, alpha=1 - self.decay)
        for e, b in zip(self.module.buffers(), model.buffers()):
            if self.average_buffers and e.is_floating_point():
                e.mul_(self.decay).add_(b, alpha=1 - self.decay)
            else:
                e.copy_(b)
        self.updates += 1
''',
}
