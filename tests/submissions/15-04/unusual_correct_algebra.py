"""Correct answers that take other routes than the reference and must keep full marks.
- label smoothing: -log p_c = lse - z_c, so the loss is lse - (1 - eps) z_y - eps mean_c(z_c), never
  forming the log-probabilities;
- NT-Xent: F.cross_entropy on the masked 2N x 2N similarity matrix with partner labels;
- RunningMetrics: a confusion matrix from one-hot matrix products, the loss kept as a Python float;
- clip_grad_norm: the norm of one flat concatenation of all gradients, scaled through torch._foreach_mul_;
- clip_grad_value: torch._foreach_clamp_min_ / _foreach_clamp_max_ on the list of gradients;
- EMA: dictionaries of named parameters and buffers, torch._foreach_lerp_ for the float parameters.
"""
EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {
    "label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if not 0.0 <= smoothing <= 1.0:  # nan too
        raise ValueError("smoothing must be within [0, 1]")
    if reduction not in {"mean", "sum", "none"}:
        raise ValueError("reduction must be 'mean', 'sum' or 'none'")
    lse = torch.logsumexp(logits, dim=-1)
    z_true = logits.gather(-1, target.reshape(-1, 1)).reshape(-1)
    per_sample = lse - (1.0 - smoothing) * z_true - smoothing * logits.mean(dim=-1)
    if reduction == "none":
        return per_sample
    total = per_sample.sum()
    return total if reduction == "sum" else total / per_sample.shape[0]
''',
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = z1.size(0)
    both = torch.cat((z1, z2))
    both = both / both.norm(dim=1, keepdim=True).clamp_min(1e-12)
    logits = both @ both.transpose(0, 1) / temperature
    self_mask = torch.eye(2 * n, dtype=torch.bool, device=logits.device)
    logits = logits.masked_fill(self_mask, float("-inf"))
    labels = torch.arange(2 * n, device=logits.device).roll(n)
    return F.cross_entropy(logits, labels)
''',
    "running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.weighted_loss = 0.0
        self.samples = 0
        self.table = torch.zeros((self.num_classes, self.num_classes), dtype=torch.int64)

    def update(self, loss, logits, targets):
        batch = int(targets.shape[0])
        if not batch:  # an empty batch's loss (nan from F.cross_entropy) counts for nothing
            return
        value = loss.detach().cpu().item() if torch.is_tensor(loss) else float(loss)
        self.weighted_loss += value * batch
        self.samples += batch
        c = self.num_classes
        truth = F.one_hot(targets.detach().cpu().long(), c)
        guess = F.one_hot(logits.detach().cpu().argmax(dim=1), c)
        self.table += truth.T @ guess

    def compute(self):
        table = self.table.clone()
        if not self.samples:
            return {"loss": float("nan"), "accuracy": float("nan"), "confusion": table}
        hits = int(torch.diagonal(table).sum().item())
        return {"loss": self.weighted_loss / self.samples, "accuracy": hits / self.samples, "confusion": table}
''',
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    params = [parameters] if isinstance(parameters, torch.Tensor) else list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    flat = torch.cat([g.detach().reshape(-1) for g in grads])
    total = torch.linalg.vector_norm(flat, ord=float(norm_type))
    factor = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(factor.to(dtype=g.dtype, device=g.device))
    return total
''',
    "clip_value_impl": '''
def clip_grad_value(parameters, clip_value):
    items = [parameters] if torch.is_tensor(parameters) else list(parameters)
    grads = [p.grad for p in items if p.grad is not None]
    if not grads:
        return None
    with torch.no_grad():
        torch._foreach_clamp_max_(grads, float(clip_value))
        torch._foreach_clamp_min_(grads, -float(clip_value))
    return None
''',
    "ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        if not (decay >= 0 and decay <= 1):
            raise ValueError(f"decay {decay} is not in [0, 1]")
        self.decay = decay
        self.average_buffers = average_buffers
        self.module = copy.deepcopy(model)
        for p in self.module.parameters():
            p.requires_grad = False
        self.calls = 0

    def update(self, model):
        mine_p = dict(self.module.named_parameters())
        live_p = dict(model.named_parameters())
        mine_b = dict(self.module.named_buffers())
        live_b = dict(model.named_buffers())
        with torch.no_grad():
            if self.calls == 0:
                for k in mine_p:
                    mine_p[k].copy_(live_p[k])
                for k in mine_b:
                    mine_b[k].copy_(live_b[k])
            else:
                keys = list(mine_p)
                torch._foreach_lerp_([mine_p[k] for k in keys], [live_p[k].detach() for k in keys],
                                     1.0 - self.decay)
                for k in mine_b:
                    if self.average_buffers and mine_b[k].is_floating_point():
                        mine_b[k].lerp_(live_b[k], 1.0 - self.decay)
                    else:
                        mine_b[k].copy_(live_b[k])
        self.calls += 1
''',
}
