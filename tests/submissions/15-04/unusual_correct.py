"""Correct answers written very differently from the reference, for every task:
an explicit smoothed target distribution, NT-Xent as two cross-view blocks, a metric kept in float64
counters with index_put_, clipping that scales through p.grad.mul_ and returns a Python float, value clipping
with torch.where, and an EMA that works on detached state_dict() aliases without torch.no_grad() (plus the
buffers registered with persistent=False, which state_dict() leaves out; added in the third blind round of
issue #19, when the text was made explicit that every buffer is copied)."""
EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {
    "label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    reducers = {"mean": lambda t: t.mean(), "sum": lambda t: t.sum(), "none": lambda t: t}
    if reduction not in reducers or not (0 <= smoothing <= 1):
        raise ValueError(f"bad arguments: smoothing={smoothing}, reduction={reduction}")
    num_classes = logits.size(-1)
    log_probs = F.log_softmax(logits, dim=-1)
    q = torch.empty_like(log_probs).fill_(smoothing / num_classes)
    q[torch.arange(len(target)), target] += 1 - smoothing
    return reducers[reduction](torch.einsum("nc,nc->n", q, -log_probs))
''',
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    a = z1 / z1.norm(dim=1, keepdim=True)
    b = z2 / z2.norm(dim=1, keepdim=True)
    n = a.shape[0]
    mask = torch.eye(n, dtype=torch.bool, device=a.device)
    def one_side(x, y):
        cross = x @ y.T / temperature                               # partner on the diagonal
        same = (x @ x.T / temperature).masked_fill(mask, -torch.inf)  # never yourself
        logits = torch.cat([cross, same], dim=1)
        return -(cross.diagonal() - logits.logsumexp(dim=1))
    return torch.cat([one_side(a, b), one_side(b, a)]).mean()
''',
    "running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.sums = torch.zeros(2, dtype=torch.float64)   # [sum of per-sample losses, number of samples]
        self.matrix = torch.zeros(self.num_classes, self.num_classes, dtype=torch.int64)

    def update(self, loss, logits, targets):
        loss = loss.item() if isinstance(loss, torch.Tensor) else loss
        batch = targets.shape[0]
        if batch == 0:  # an empty batch's loss (nan from F.cross_entropy) counts for nothing
            return
        self.sums += torch.tensor([loss * batch, batch], dtype=torch.float64)
        guess = torch.max(logits.detach(), dim=1).indices.to("cpu")
        self.matrix.index_put_((targets.to("cpu"), guess), torch.ones(batch, dtype=torch.int64), accumulate=True)

    def compute(self):
        total, count = self.sums.tolist()
        right = torch.trace(self.matrix).item()
        return {"loss": total / count if count else math.nan,
                "accuracy": right / count if count else math.nan,
                "confusion": self.matrix.clone()}
''',
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    params = [parameters] if torch.is_tensor(parameters) else [p for p in parameters]
    norm_type = float(norm_type)  # the string 'inf' too, as clip_grad_norm_ accepts it
    with_grad = [p for p in params if p.grad is not None]
    if len(with_grad) == 0:
        return 0.0
    flat = torch.cat([p.grad.reshape(-1).double() for p in with_grad])
    if norm_type == float("inf"):
        total = flat.abs().max().item()
    elif norm_type == -float("inf"):  # vector_norm's -inf: the smallest absolute entry
        total = flat.abs().min().item()
    else:
        total = flat.abs().pow(norm_type).sum().pow(1.0 / norm_type).item()
    if not total + 1e-6 <= max_norm:  # a nan total scales by nan, as clip_grad_norm_ does
        scale = max_norm / (total + 1e-6)
        for p in with_grad:
            p.grad.mul_(scale)
    return total
''',
    "clip_value_impl": '''
def clip_grad_value(parameters, clip_value):
    for p in ([parameters] if isinstance(parameters, torch.Tensor) else parameters):
        g = p.grad
        if g is None:
            continue
        g.copy_(torch.where(g > clip_value, torch.full_like(g, clip_value),
                            torch.where(g < -clip_value, torch.full_like(g, -clip_value), g)))
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        if not 0 <= decay <= 1:  # nan too
            raise ValueError("decay must lie in [0, 1]")
        self.decay, self.average_buffers = decay, average_buffers
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.module.requires_grad_(False)
        self.n_averaged = 0
        self._buffer_names = {name for name, _ in self.module.named_buffers()}

    @staticmethod
    def _aliases(module):
        """Detached aliases of every parameter and buffer: state_dict() has all of them except the
        non-persistent buffers, which are added by name."""
        state = module.state_dict()
        for name, b in module.named_buffers():
            state.setdefault(name, b.detach())
        return state

    def update(self, model):
        ema_state = self._aliases(self.module)    # detached aliases of self.module's tensors
        live_state = self._aliases(model)         # detached aliases of the live tensors (read only)
        seen = set()  # a tied parameter has one entry per module holding it: blend it once
        for name, target in ema_state.items():
            if target.data_ptr() in seen and target.numel():
                continue
            seen.add(target.data_ptr())
            source = live_state[name]
            is_buffer = name in self._buffer_names
            blend = self.n_averaged > 0 and target.is_floating_point() and (not is_buffer or self.average_buffers)
            if blend:
                target.mul_(self.decay).add_(source, alpha=1.0 - self.decay)
            else:
                target.copy_(source)
        self.n_averaged += 1
''',
}
