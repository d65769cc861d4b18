"""Correct, from the third blind batch of issue #19 (2026-11-26): NT-Xent with the two views interleaved
(row 2k is view 1 of sample k and row 2k+1 is view 2), so each row's partner is i ^ 1. Rows are normalised
by hand with vector_norm, the diagonal becomes -inf through torch.where, and the loss is log_softmax plus
gather instead of F.cross_entropy. The rows are ordered differently, the loss is the same."""
EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass", "clip_grad_value": "pass", "ema": "pass"}

CELLS = {
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n, dim = z1.shape
    z = torch.stack([z1, z2], dim=1).reshape(2 * n, dim)
    z = z / torch.linalg.vector_norm(z, dim=1, keepdim=True).clamp_min(1e-12)
    logits = (z @ z.mT) / temperature
    diag = torch.eye(2 * n, dtype=torch.bool, device=z.device)
    logits = torch.where(diag, torch.full_like(logits, float("-inf")), logits)
    partner = torch.arange(2 * n, device=z.device) ^ 1
    log_p = logits.log_softmax(dim=1)
    return -log_p.gather(1, partner[:, None]).mean()
''',
}
