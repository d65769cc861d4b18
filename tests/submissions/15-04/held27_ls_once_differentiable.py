"""Held-out round 27: the per-sample loss is a torch.autograd.Function with a hand-written backward
(softmax minus the smoothed target, exact to first order) marked @once_differentiable, so a second
derivative (a gradient penalty, a Hessian-vector product: F.cross_entropy supports both) raises. The text:
"and be differentiable (autograd through your operations gives the gradient)": here autograd does not go
through the operations, a backward of its own gives the gradient, and only once."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction=\"mean\"):\n",
     '''class _SmoothedCE(torch.autograd.Function):
    """Per-sample smoothed cross-entropy with its closed-form gradient softmax(z) - q."""

    @staticmethod
    def forward(ctx, logits, target, smoothing):
        log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)
        nll = -log_p.gather(1, target.unsqueeze(1)).squeeze(1)
        uniform = -log_p.mean(dim=1)
        ctx.save_for_backward(log_p, target)
        ctx.smoothing = smoothing
        return (1.0 - smoothing) * nll + smoothing * uniform

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad):
        log_p, target = ctx.saved_tensors
        q = torch.full_like(log_p, ctx.smoothing / log_p.shape[1])
        q.scatter_add_(1, target.unsqueeze(1), torch.full_like(log_p[:, :1], 1.0 - ctx.smoothing))
        return (log_p.exp() - q) * grad.unsqueeze(1), None, None


def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
'''),
    ("""    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)
    nll = -log_p.gather(1, target.unsqueeze(1)).squeeze(1)
    uniform = -log_p.mean(dim=1)
    loss = (1.0 - smoothing) * nll + smoothing * uniform
""", """    loss = _SmoothedCE.apply(logits, target, float(smoothing))
"""))}
