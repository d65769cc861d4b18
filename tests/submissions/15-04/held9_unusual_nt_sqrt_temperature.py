"""Held-out round 9, correct: nt_xent_loss written another way: each normalised row is divided by
sqrt(temperature), the similarity matrix is an einsum, the self-similarity is replaced with -inf by
torch.where, and the loss is F.cross_entropy against the partner indices (allowed by the text)."""
EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {"nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    n = z1.shape[0]
    u = F.normalize(torch.cat((z1, z2)), p=2.0, dim=-1) / math.sqrt(temperature)
    logits = torch.einsum("id,jd->ij", u, u)
    idx = torch.arange(2 * n, device=u.device)
    self_pair = idx[:, None] == idx[None, :]
    logits = torch.where(self_pair, torch.full_like(logits, -math.inf), logits)
    return F.cross_entropy(logits, idx.roll(n))
'''}
