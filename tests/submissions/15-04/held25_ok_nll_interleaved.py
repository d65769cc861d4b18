"""Held-out round 25, correct but unusual: label smoothing from F.log_softmax with F.nll_loss for the NLL
part (allowed: the text forbids only F.cross_entropy / nn.CrossEntropyLoss, and nll_loss takes
log-probabilities), the smoothing term reduced the same way; NT-Xent with the two views interleaved
(row 2i and 2i+1 are partners, found as `i ^ 1`), the diagonal masked in place with fill_diagonal_ and the
loss handed to F.cross_entropy (allowed in exercise 2)."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {
    "label_smoothing_impl": edited(
        "15-04", "label_smoothing_impl",
        ("    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n"
         "    nll = -log_p.gather(1, target.unsqueeze(1)).squeeze(1)\n"
         "    uniform = -log_p.mean(dim=1)\n"
         "    loss = (1.0 - smoothing) * nll + smoothing * uniform\n"
         "    if reduction == \"mean\":\n"
         "        return loss.mean()\n"
         "    if reduction == \"sum\":\n"
         "        return loss.sum()\n"
         "    return loss\n",
         "    log_p = F.log_softmax(logits, dim=1)\n"
         "    nll = F.nll_loss(log_p, target, reduction=reduction)\n"
         "    uniform = -log_p.mean(dim=1)\n"
         "    if reduction == \"mean\":\n"
         "        uniform = uniform.mean()\n"
         "    elif reduction == \"sum\":\n"
         "        uniform = uniform.sum()\n"
         "    return (1.0 - smoothing) * nll + smoothing * uniform\n")),
    "nt_xent_impl": edited(
        "15-04", "nt_xent_impl",
        ("    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)\n"
         "    sim = (z @ z.T) / temperature\n"
         "    eye = torch.eye(2 * n, dtype=torch.bool, device=z.device)\n"
         "    sim = sim.masked_fill(eye, float(\"-inf\"))\n"
         "    rows = torch.arange(2 * n, device=z.device)\n"
         "    partner = (rows + n) % (2 * n)\n"
         "    log_prob_pos = sim[rows, partner] - torch.logsumexp(sim, dim=1)\n"
         "    return -log_prob_pos.mean()\n",
         "    z = F.normalize(torch.stack([z1, z2], dim=1).reshape(2 * n, z1.shape[1]), dim=1)\n"
         "    sim = (z @ z.T) / temperature\n"
         "    sim.fill_diagonal_(float(\"-inf\"))\n"
         "    partner = torch.arange(2 * n, device=z.device) ^ 1\n"
         "    return F.cross_entropy(sim, partner)\n")),
}
