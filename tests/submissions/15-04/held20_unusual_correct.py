"""Held-out round 20, a correct answer written in an unusual way: label smoothing as the cross-entropy against
an explicit target distribution q = eps / C everywhere plus (1 - eps) scattered onto the true class,
-(q * log_softmax(z)).sum(1), and the reduction picked from a dict of callables after validation."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass"}
CELLS = {"label_smoothing_impl": edited(
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
     "    q = torch.full_like(log_p, smoothing / logits.shape[1])\n"
     "    q = q.scatter_add(1, target.reshape(-1, 1), torch.full_like(q[:, :1], 1.0 - smoothing))\n"
     "    loss = -(q * log_p).sum(dim=1)\n"
     "    return {\"mean\": loss.mean, \"sum\": loss.sum, \"none\": lambda: loss}[reduction]()\n"))}
