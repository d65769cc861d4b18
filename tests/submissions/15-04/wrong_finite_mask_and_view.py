"""Mistakes found by the blind batches of issue #19 (2026-11-26):
- nt_xent masks the self-similarity with a finite value (-1e4 in the second round, -1e9 in the third)
  instead of -inf: at a tiny temperature (the text allows any positive one) every real similarity /
  temperature can lie below it, and the masked diagonal then dominates the softmax
  (test_nt_xent_any_temperature, temperatures 1e-8 and 1e-12);
- clip_grad_norm flattens the gradients with view(-1), which raises for a non-contiguous .grad (a
  Parameter made from a transposed tensor has one) (test_clip_norm_any_layout);
- label_smoothing_cross_entropy picks -log p_y through log_p.view(-1) (third round); log_softmax keeps
  the layout of transposed or strided logits, so view raises (test_ls_any_layout)."""
EXPECT = {"label_smoothing": "fail", "nt_xent": "fail", "running_metrics": "pass", "clip_grad_norm": "fail", "clip_grad_value": "pass", "ema": "pass"}

CELLS = {
    "label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if not 0.0 <= smoothing <= 1.0:
        raise ValueError(f"smoothing must be in [0, 1], got {smoothing}")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"unknown reduction {reduction!r}")
    n, c = logits.shape
    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)
    flat = torch.arange(n, device=logits.device) * c + target
    nll = -log_p.view(-1)[flat]              # one gather-free lookup per row
    per_sample = (1 - smoothing) * nll + smoothing * (-log_p.sum(dim=1) / c)
    if reduction == "mean":
        return per_sample.mean()
    if reduction == "sum":
        return per_sample.sum()
    return per_sample
''',
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = z @ z.T / temperature
    eye = torch.eye(2 * n, dtype=torch.bool, device=z.device)
    sim = sim.masked_fill(eye, -1e9)        # -inf gave me nan gradients once
    idx = torch.arange(2 * n, device=z.device)
    target = (idx + n) % (2 * n)
    return F.cross_entropy(sim, target)
''',
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    flat = torch.cat([g.view(-1) for g in grads])
    total = flat.abs().max() if norm_type == float("inf") else flat.norm(norm_type)
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    for g in grads:
        g.mul_(coef)
    return total
''',
}
