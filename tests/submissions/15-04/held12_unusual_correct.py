"""Held-out round 12: a correct answer to every task, written unusually. Label smoothing builds the smoothed
target q with scatter and takes -(q * log_softmax).sum(1); NT-Xent drops the diagonal from the similarity
matrix (2N x (2N - 1)) and shifts the partner's column index instead of masking with -inf; RunningMetrics
counts with index_put_(accumulate=True) into a flat vector; clip_grad_norm norms the concatenation of all
gradients and returns a Python float; clip_grad_value clamps through `out=`; EMA pairs parameters and
buffers by name."""

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass",
          "clip_grad_norm": "pass", "clip_grad_value": "pass", "ema": "pass"}

CELLS = {
    "label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if reduction not in {"none": 0, "sum": 1, "mean": 2}:
        raise ValueError("reduction must be 'none', 'sum' or 'mean'")
    if not (smoothing >= 0 and smoothing <= 1):
        raise ValueError("smoothing must lie in [0, 1]")
    n_classes = logits.shape[-1]
    log_p = F.log_softmax(logits, dim=-1)
    q = torch.full_like(log_p, smoothing / n_classes)
    q = q.scatter_add(1, target.reshape(-1, 1), torch.full_like(log_p[:, :1], 1.0 - smoothing))
    per_sample = -(q * log_p).sum(dim=-1)
    if reduction == "none":
        return per_sample
    total = per_sample.sum()
    return total if reduction == "sum" else total / per_sample.shape[0]
''',
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = len(z1)
    z = torch.cat((z1, z2))
    z = z / z.norm(dim=1, keepdim=True).clamp_min(1e-12)
    sim = z @ z.mT / temperature
    m = 2 * n
    keep = ~torch.eye(m, dtype=torch.bool, device=z.device)
    others = sim[keep].reshape(m, m - 1)          # row i without column i
    rows = torch.arange(m, device=z.device)
    partner = (rows + n) % m
    target = partner - (partner > rows).long()     # the partner's column once column i is gone
    return F.cross_entropy(others, target)
''',
    "running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.state = {"loss": 0.0, "n": 0, "counts": torch.zeros(self.num_classes ** 2, dtype=torch.int64)}

    def update(self, loss, logits, targets):
        b = int(targets.shape[0])
        if b == 0:  # an empty batch's loss (nan from F.cross_entropy) counts for nothing
            return
        value = loss.item() if isinstance(loss, torch.Tensor) else float(loss)
        self.state["loss"] = self.state["loss"] + value * b
        self.state["n"] += b
        pred = logits.detach().argmax(dim=1).to("cpu")
        flat = targets.detach().to("cpu", torch.int64) * self.num_classes + pred
        self.state["counts"].index_put_((flat,), torch.ones_like(flat), accumulate=True)

    def compute(self):
        c = self.num_classes
        conf = self.state["counts"].reshape(c, c).clone()
        n = self.state["n"]
        if not n:
            return dict(loss=math.nan, accuracy=math.nan, confusion=conf)
        return dict(loss=self.state["loss"] / n, accuracy=conf.trace().item() / n, confusion=conf)
''',
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    params = [parameters] if torch.is_tensor(parameters) else [*parameters]
    grads = [p.grad for p in params if p.grad is not None]
    if len(grads) == 0:
        return 0.0
    dtype = grads[0].dtype
    for g in grads[1:]:
        dtype = torch.promote_types(dtype, g.dtype)
    flat = torch.cat([g.detach().reshape(-1).to(grads[0].device, dtype) for g in grads])
    total = torch.linalg.vector_norm(flat, float(norm_type))
    factor = (max_norm / (total + 1e-6)).clamp(max=1.0)
    with torch.no_grad():
        torch._foreach_mul_(grads, factor.to(grads[0].device))
    return float(total)
''',
    "clip_value_impl": '''
def clip_grad_value(parameters, clip_value):
    if torch.is_tensor(parameters):
        parameters = (parameters,)
    for p in parameters:
        g = p.grad
        if g is None:
            continue
        with torch.no_grad():
            torch.clamp(g, -clip_value, clip_value, out=g)
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        if not (decay >= 0.0 and decay <= 1.0):
            raise ValueError("decay must be within [0, 1]")
        self.decay, self.average_buffers, self.count = decay, average_buffers, 0
        self.module = copy.deepcopy(model)
        self.module.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        w = 1.0 - self.decay
        live_p = dict(model.named_parameters())
        for name, avg in self.module.named_parameters():
            src = live_p[name].detach()
            if self.count:
                avg.lerp_(src, w)
            else:
                avg.copy_(src)
        live_b = dict(model.named_buffers())
        for name, avg in self.module.named_buffers():
            src = live_b[name]
            if self.count and self.average_buffers and torch.is_floating_point(avg):
                avg.lerp_(src, w)
            else:
                avg.copy_(src)
        self.count += 1
''',
}
