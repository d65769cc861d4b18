"""Correct, written differently: autograd.grad summed into .grad by hand, foreach-free SGD with explicit
formulas, AdamW out of place with the step kept as a 0-dim tensor (as torch does), the schedule as a factor times base_lr with cos^2, and a collate built from boolean-mask assignment."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = {t: "pass" for t in _c["TASKS"]}
CELLS = {
    "accumulate_impl": '''def accumulate_grads(model, loss_fn, batch, micro_batches):
    xs, ys = batch
    N = len(xs)
    step = (N + micro_batches - 1) // micro_batches
    params = [p for p in model.parameters() if p.requires_grad]
    weighted = []
    start = 0
    while start < N:
        stop = min(start + step, N)
        part = loss_fn(model(xs[start:stop]), ys[start:stop])
        grads = torch.autograd.grad(part, params, allow_unused=True)
        for p, g in zip(params, grads):
            if g is None:  # a parameter the forward never uses: backward() leaves its .grad as it was
                continue
            contribution = g * ((stop - start) / N)
            p.grad = contribution if p.grad is None else p.grad + contribution
        weighted.append(float(part) * (stop - start))
        start = stop
    return sum(weighted) / N
''',
    "sgd_impl": '''class MomentumSGD(torch.optim.Optimizer):
    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
        for name, v in (("lr", lr), ("momentum", momentum), ("weight_decay", weight_decay)):
            if v < 0:
                raise ValueError(f"{name} must not be negative")
        if nesterov and not (momentum > 0 and dampening == 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov})

    def step(self):
        with torch.no_grad():
            for g in self.param_groups:
                for p in (q for q in g["params"] if q.grad is not None):
                    # the decay only where weight_decay is not 0, as torch.optim.SGD: 0 * p is nan for an inf weight
                    grad = p.grad + g["weight_decay"] * p if g["weight_decay"] != 0 else p.grad
                    if g["momentum"] > 0:
                        st = self.state[p]
                        if "momentum_buffer" in st:
                            st["momentum_buffer"] = g["momentum"] * st["momentum_buffer"] + (1 - g["dampening"]) * grad
                        else:
                            st["momentum_buffer"] = grad.detach().clone()
                        b = st["momentum_buffer"]
                        grad = grad + g["momentum"] * b if g["nesterov"] else b
                    p.copy_(p - g["lr"] * grad)
''',
    "schedule_impl": '''def warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, start_factor=0.1, eta_min=0.0):
    if step >= warmup_steps:
        frac = min(1.0, (step - warmup_steps) / (total_steps - warmup_steps))
        return eta_min + (base_lr - eta_min) * math.cos(math.pi * frac / 2) ** 2
    ramp = step / warmup_steps
    return base_lr * ((1 - ramp) * start_factor + ramp)
''',
    "collate_impl": '''def pad_collate(samples, padding_value=0.0):
    if not samples:
        raise ValueError("pad_collate() got no samples")
    seqs, labels = zip(*samples)
    lengths = torch.as_tensor([t.size(0) for t in seqs]).long()
    L = max(lengths.tolist())
    mask = torch.zeros(len(seqs), L, dtype=torch.bool)
    for i, n in enumerate(lengths.tolist()):
        mask[i, :n] = True
    inputs = torch.full((len(seqs), L) + tuple(seqs[0].shape[1:]), padding_value, dtype=seqs[0].dtype,
                        device=seqs[0].device)
    if L > 0:
        inputs[mask] = torch.cat([t.reshape(t.shape) for t in seqs])
    return {"labels": torch.tensor([int(torch.as_tensor(y)) for y in labels]).to(torch.int64),
            "mask": mask, "lengths": lengths, "inputs": inputs}
''',
    "adamw_impl": '''class ScratchAdamW(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        for name, value in (("lr", lr), ("eps", eps), ("weight_decay", weight_decay)):
            if not value >= 0:
                raise ValueError(f"invalid {name}: {value}")
        if not (0 <= betas[0] < 1 and 0 <= betas[1] < 1):
            raise ValueError(f"invalid betas: {betas}")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay})

    def step(self):
        with torch.no_grad():
            for group in self.param_groups:
                beta1, beta2 = group["betas"]
                for p in (q for q in group["params"] if q.grad is not None):
                    st = self.state[p]
                    if len(st) == 0:
                        st.update(step=torch.tensor(0.0), exp_avg=torch.zeros_like(p), exp_avg_sq=torch.zeros_like(p))
                    st["step"] = st["step"] + 1
                    n = st["step"].item()
                    st["exp_avg"] = beta1 * st["exp_avg"] + (1 - beta1) * p.grad
                    st["exp_avg_sq"] = beta2 * st["exp_avg_sq"] + (1 - beta2) * p.grad * p.grad
                    shrunk = p * (1 - group["lr"] * group["weight_decay"])
                    denom = st["exp_avg_sq"].sqrt() / (1 - beta2 ** n) ** 0.5 + group["eps"]
                    p.copy_(shrunk - group["lr"] / (1 - beta1 ** n) * st["exp_avg"] / denom)
''',
}
