"""Held-out gap-hunting round 5 (issue 39, 2026-12-02): correct, written unusually. accumulate_grads takes
torch.autograd.grad of each share-weighted micro-loss (allow_unused) and adds the sums into .grad at the end;
MomentumSGD writes the four lines with out-of-place tensors and a dict lookup for the buffer; ScratchAdamW keeps
"step" as a Python int and divides sqrt(v) by (1 - beta2^t) ** 0.5 (since round 22: sqrt(v / (1 - beta2^t))
overflows for float16); the schedule is three early returns; pad_collate fills a padding-valued tensor with one
index_put over the flattened (batch * L_max) rows. Every task must pass.
The held5_* known-wrong examples are single edits of these cells (see _held5.py)."""
EXPECT = {t: "pass" for t in ["accumulate", "sgd", "adamw", "schedule", "collate"]}
CELLS = {
    "accumulate_impl": '''
def accumulate_grads(model, loss_fn, batch, micro_batches):
    inputs, targets = batch
    n = inputs.shape[0]
    size = -(-n // micro_batches)
    trainable = [p for p in model.parameters() if p.requires_grad]
    sums = [None] * len(trainable)
    loss_total = 0.0
    with torch.enable_grad():
        for lo in range(0, n, size):
            part_x, part_y = inputs[lo:lo + size], targets[lo:lo + size]
            share = part_x.shape[0] / n
            part_loss = loss_fn(model(part_x), part_y)
            loss_total += part_loss.item() * share
            if not trainable:
                continue
            grads = torch.autograd.grad(part_loss * share, trainable, allow_unused=True)
            for i, g in enumerate(grads):
                if g is not None:
                    sums[i] = g if sums[i] is None else sums[i] + g
    for p, g in zip(trainable, sums):
        if g is None:
            continue
        if p.grad is None:
            p.grad = g.detach()
        else:
            p.grad.add_(g)
    return float(loss_total)
''',
    "sgd_impl": '''
class MomentumSGD(torch.optim.Optimizer):
    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
        if lr < 0 or momentum < 0 or weight_decay < 0:
            raise ValueError(f"lr, momentum and weight_decay must be >= 0 (got {lr}, {momentum}, {weight_decay})")
        if nesterov and not (momentum > 0 and dampening == 0):
            raise ValueError("nesterov=True needs momentum > 0 and dampening == 0")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            lr, mu, tau = group["lr"], group["momentum"], group["dampening"]
            wd, ahead = group["weight_decay"], group["nesterov"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                d = p.grad + wd * p if wd != 0 else p.grad
                if mu != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = d.clone()
                    else:
                        buf = mu * buf + (1 - tau) * d
                    state["momentum_buffer"] = buf
                    d = d + mu * buf if ahead else buf
                p.add_(d, alpha=-lr)
''',
    "adamw_impl": '''
class ScratchAdamW(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        if not (lr >= 0 and eps >= 0 and weight_decay >= 0):
            raise ValueError(f"lr, eps and weight_decay must be >= 0 (got {lr}, {eps}, {weight_decay})")
        if not all(0.0 <= b < 1.0 for b in betas):
            raise ValueError(f"each beta must lie in [0, 1), got {betas}")
        super().__init__(params, {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay})

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            lr, eps, wd = group["lr"], group["eps"], group["weight_decay"]
            b1, b2 = group["betas"]
            for p in group["params"]:
                g = p.grad
                if g is None:
                    continue
                state = self.state[p]
                if "step" not in state:
                    state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state["step"] = 0
                t = int(state["step"]) + 1
                state["step"] = t
                p.mul_(1 - lr * wd)
                m, v = state["exp_avg"], state["exp_avg_sq"]
                m.mul_(b1).add_(g, alpha=1 - b1)
                v.mul_(b2).addcmul_(g, g, value=1 - b2)
                denom = (v.sqrt() / (1 - b2 ** t) ** 0.5).add_(eps)
                p.addcdiv_(m, denom, value=-lr / (1 - b1 ** t))
''',
    "schedule_impl": '''
def warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, start_factor=0.1, eta_min=0.0):
    if step > total_steps:
        return float(eta_min)
    if step < warmup_steps:
        return float(base_lr * (start_factor + (1.0 - start_factor) * step / warmup_steps))
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return float(eta_min + (base_lr - eta_min) * (1.0 + math.cos(math.pi * progress)) / 2.0)
''',
    "collate_impl": '''
def pad_collate(samples, padding_value=0.0):
    if len(samples) == 0:
        raise ValueError("pad_collate needs at least one (sequence, label) sample")
    seqs = [s for s, _ in samples]
    feats = tuple(seqs[0].shape[1:])
    lengths = torch.tensor([s.shape[0] for s in seqs], dtype=torch.int64)
    batch, longest = len(seqs), int(lengths.max())
    inputs = torch.full((batch, longest, *feats), padding_value, dtype=seqs[0].dtype, device=seqs[0].device)
    rows = torch.cat([torch.arange(k, dtype=torch.int64) + i * longest for i, k in enumerate(lengths.tolist())])
    inputs.view(batch * longest, *feats)[rows.to(inputs.device)] = torch.cat(seqs).to(inputs.dtype)
    mask = torch.arange(longest).expand(batch, longest) < lengths.unsqueeze(1)
    labels = torch.tensor([int(label) for _, label in samples], dtype=torch.int64)
    return {"inputs": inputs, "lengths": lengths, "mask": mask, "labels": labels}
''',
}
