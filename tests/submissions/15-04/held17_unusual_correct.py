"""Held-out round 17: correct answers written unusually. nt_xent: the diagonal filled with -inf in place
(fill_diagonal_) and F.cross_entropy against the partner labels arange(2N).roll(N). running_metrics: the
confusion matrix as a product of one-hot matrices (one_hot(targets).T @ one_hot(pred)), the loss kept as a
float sum of per-batch totals. clip_grad_norm: the norm of the concatenation of all flattened gradients (which
the text says equals the norm of the per-tensor norms), the factor capped with torch.minimum (which carries a nan)."""

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {
    "nt_xent_impl": '''
def nt_xent_loss(z1, z2, temperature=0.5):
    views = F.normalize(torch.cat((z1, z2), dim=0), dim=1)
    logits = views @ views.T / temperature
    logits.fill_diagonal_(float("-inf"))
    n = z1.shape[0]
    labels = torch.arange(2 * n, device=views.device).roll(n)
    return F.cross_entropy(logits, labels)
''',
    "running_metrics_impl": '''
class RunningMetrics:
    def __init__(self, num_classes):
        self.num_classes = num_classes
        self.reset()

    def reset(self):
        self.total_loss, self.seen = 0.0, 0
        self.matrix = torch.zeros((self.num_classes,) * 2, dtype=torch.int64)

    def update(self, loss, logits, targets):
        if not len(targets):  # an empty batch's loss (nan from F.cross_entropy) counts for nothing
            return
        with torch.no_grad():
            k = self.num_classes
            truth = F.one_hot(targets.detach().cpu().long(), k)
            guess = F.one_hot(logits.detach().argmax(dim=1).cpu(), k)
            self.matrix += truth.T @ guess
            batch = int(truth.shape[0])
            self.total_loss = self.total_loss + batch * float(loss)
            self.seen += batch

    def compute(self):
        nan = float("nan")
        hits = int(torch.diagonal(self.matrix).sum())
        return dict(loss=self.total_loss / self.seen if self.seen else nan,
                    accuracy=hits / self.seen if self.seen else nan,
                    confusion=self.matrix.clone())
''',
    "clip_norm_impl": '''
def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    params = [parameters] if torch.is_tensor(parameters) else list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    flat = torch.cat([g.detach().reshape(-1) for g in grads])
    total = torch.linalg.vector_norm(flat, float(norm_type))
    scale = max_norm / (total + 1e-6)
    scale = torch.minimum(scale, torch.ones_like(scale))   # nan stays nan, like clamp
    with torch.no_grad():
        for g in grads:
            g.mul_(scale.to(dtype=g.dtype, device=g.device))
    return total
''',
}
