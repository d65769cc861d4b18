"""Held-out round 14: correct answers written unusually. label_smoothing: F.nll_loss for the NLL part and an
explicit per-class sum for the uniform part (no F.cross_entropy). nt_xent: the self-similarity is removed by
boolean-mask indexing (sim[~eye] reshaped to (2N, 2N - 1), which needs values), the partner's column found
in the reduced row. running_metrics: index_put_ with accumulate=True instead of bincount, losses kept as a
float64 tensor sum. clip_grad_norm: the scale factor is a Python float read with .item(), applied
only below 1. clip_grad_value:
torch.clamp with out= into the .grad itself. EMA: torch._foreach_lerp_ over parameter lists."""

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {
    "label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if reduction not in {"none", "sum", "mean"}:
        raise ValueError("reduction must be 'none', 'sum' or 'mean'")
    if not (smoothing >= 0 and smoothing <= 1):
        raise ValueError("smoothing must lie in [0, 1]")
    log_p = F.log_softmax(logits, dim=-1)
    nll = F.nll_loss(log_p, target, reduction="none")
    smooth = -log_p.sum(dim=-1) / logits.shape[-1]
    per_sample = nll * (1 - smoothing) + smooth * smoothing
    return {"none": lambda: per_sample, "sum": per_sample.sum, "mean": per_sample.mean}[reduction]()
''',
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = len(z1)
    z = F.normalize(torch.cat((z1, z2)), p=2, dim=-1)
    sim = torch.mm(z, z.t()) / temperature
    keep = ~torch.eye(2 * n, dtype=torch.bool, device=sim.device)
    others = sim[keep].reshape(2 * n, 2 * n - 1)
    # in row i, column j > i moved one to the left; the partner i + N (i < N) is at i + N - 1, i - N stays
    idx = torch.arange(2 * n, device=sim.device)
    pos_col = torch.where(idx < n, idx + n - 1, idx - n)
    return F.cross_entropy(others, pos_col)
''',
    "running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.total = torch.zeros((), dtype=torch.float64)
        self.seen = 0
        self.conf = torch.zeros((self.num_classes, self.num_classes), dtype=torch.int64)

    def update(self, loss, logits, targets):
        b = int(targets.shape[0])
        if b == 0:  # an empty batch's loss (nan from F.cross_entropy) counts for nothing
            return
        self.total += torch.as_tensor(loss, dtype=torch.float64).detach().cpu() * b
        self.seen += b
        t = targets.detach().to("cpu", torch.int64)
        p = torch.argmax(logits.detach(), dim=1).to("cpu")
        self.conf.index_put_((t, p), torch.ones(b, dtype=torch.int64), accumulate=True)

    def compute(self):
        nan = float("nan")
        if not self.seen:
            return dict(loss=nan, accuracy=nan, confusion=self.conf.clone())
        return dict(loss=float(self.total) / self.seen,
                    accuracy=int(torch.trace(self.conf)) / self.seen,
                    confusion=self.conf.clone())
''',
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    params = [parameters] if torch.is_tensor(parameters) else list(parameters)
    grads = [q.grad for q in params if q.grad is not None]
    if len(grads) == 0:
        return 0.0
    p = float(norm_type)
    dev = grads[0].device
    norms = torch.stack([torch.linalg.vector_norm(g.detach(), p).to(dev) for g in grads])
    total = torch.linalg.vector_norm(norms, p)
    factor = (max_norm / (total + 1e-6)).item()
    if not factor >= 1.0:   # nan too: clip_grad_norm_ spreads it
        for g in grads:
            g.detach().mul_(factor)
    return total
''',
    "clip_value_impl": '''
def clip_grad_value(parameters, clip_value):
    params = (parameters,) if isinstance(parameters, torch.Tensor) else parameters
    c = float(clip_value)
    for q in params:
        g = q.grad
        if g is None:
            continue
        torch.clamp(g.detach(), -c, c, out=g.detach())
    return None
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        if not (0 <= decay <= 1):
            raise ValueError("decay must lie in [0, 1]")
        self.decay, self.average_buffers = decay, average_buffers
        self.module = copy.deepcopy(model).requires_grad_(False)
        self._started = False

    @torch.no_grad()
    def update(self, model):
        mine, theirs = list(self.module.parameters()), [p.detach() for p in model.parameters()]
        if not self._started:
            torch._foreach_copy_(mine, theirs)
        elif mine:
            torch._foreach_lerp_(mine, theirs, 1.0 - self.decay)
        for e, b in zip(self.module.buffers(), model.buffers()):
            if self._started and self.average_buffers and torch.is_floating_point(e):
                e.lerp_(b, 1.0 - self.decay)
            else:
                e.copy_(b)
        self._started = True
'''}
