"""Held-out gap round (correct, unusual): label smoothing as an einsum against the smoothed target built with
one_hot and torch.lerp; clip_grad_norm from one concatenated vector; clip_grad_value with torch.where; an EMA
that pairs tensors by name once and updates them with torch._foreach_lerp_."""
CELLS = {
"label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if not (0.0 <= smoothing <= 1.0):
        raise ValueError(f"smoothing must be in [0, 1], got {smoothing}")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"unknown reduction {reduction!r}")
    c = logits.shape[1]
    log_p = F.log_softmax(logits, dim=1)
    onehot = F.one_hot(target, c).to(log_p.dtype)
    q = torch.lerp(onehot, torch.full_like(onehot, 1.0 / c), smoothing)
    per = -torch.einsum("nc,nc->n", q, log_p)
    return {"mean": per.mean, "sum": per.sum, "none": lambda: per}[reduction]()
''',
"clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    params = [parameters] if torch.is_tensor(parameters) else list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    flat = torch.cat([g.detach().reshape(-1) for g in grads])
    total = torch.linalg.vector_norm(flat, float(norm_type))
    factor = (max_norm / (total + 1e-6)).clamp(max=1.0)
    for g in grads:
        g.detach().mul_(factor.to(g.dtype))
    return total
''',
"clip_value_impl": '''
def clip_grad_value(parameters, clip_value):
    params = [parameters] if torch.is_tensor(parameters) else parameters
    for p in params:
        g = p.grad
        if g is None:
            continue
        with torch.no_grad():
            g.copy_(torch.where(g > clip_value, clip_value, torch.where(g < -clip_value, -clip_value, g)))
''',
"ema_impl": '''
class EMA:
    def __init__(self, model, decay=0.999, average_buffers=False):
        if not 0 <= decay <= 1:
            raise ValueError("decay must lie in [0, 1]")
        self.module = copy.deepcopy(model).requires_grad_(False)
        self.decay, self.average_buffers, self.calls = decay, average_buffers, 0

    def update(self, model):
        mine_p = list(self.module.parameters())
        live_p = list(model.parameters())
        mine_b = list(self.module.buffers())
        live_b = list(model.buffers())
        with torch.no_grad():
            avg_e, avg_l, copy_pairs = [], [], []
            for e, l in zip(mine_p, live_p):
                (avg_e.append(e), avg_l.append(l)) if self.calls else copy_pairs.append((e, l))
            for e, l in zip(mine_b, live_b):
                if self.calls and self.average_buffers and e.is_floating_point():
                    avg_e.append(e)
                    avg_l.append(l)
                else:
                    copy_pairs.append((e, l))
            for e, l in copy_pairs:
                e.copy_(l)
            for e, l in zip(avg_e, avg_l):
                torch._foreach_lerp_([e], [l.to(e.dtype)], 1.0 - self.decay)
        self.calls += 1
'''}
EXPECT = {"label_smoothing": "pass", "clip_grad_norm": "pass", "clip_grad_value": "pass", "ema": "pass"}
