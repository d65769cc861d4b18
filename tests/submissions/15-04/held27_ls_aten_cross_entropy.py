"""Held-out round 27: the loss is handed to PyTorch's own cross-entropy operator through the dispatcher
name, `torch.ops.aten.cross_entropy_loss(logits, target, None, reduction_enum, -100, smoothing)`, which is
exactly what F.cross_entropy calls. The text: "Implement it from log-probabilities (`torch.logsumexp` or
`F.log_softmax`); do **not** call `F.cross_entropy` or `nn.CrossEntropyLoss`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("""    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)
    nll = -log_p.gather(1, target.unsqueeze(1)).squeeze(1)
    uniform = -log_p.mean(dim=1)
    loss = (1.0 - smoothing) * nll + smoothing * uniform
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss
""", """    code = {"none": 0, "mean": 1, "sum": 2}[reduction]
    return torch.ops.aten.cross_entropy_loss(logits, target, None, code, -100, float(smoothing))
"""))}
