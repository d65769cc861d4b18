"""Held-out gap round (wrong): label_smoothing_cross_entropy works in float64 "for stability" and returns the
float64 result for float32 logits, where F.cross_entropy returns float32 (the dtype of the logits)."""
CELLS = {"label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if not (0.0 <= smoothing <= 1.0):
        raise ValueError(f"smoothing must be in [0, 1], got {smoothing}")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"unknown reduction {reduction!r}")
    z = logits.double()
    log_p = z - torch.logsumexp(z, dim=1, keepdim=True)
    nll = -log_p.gather(1, target[:, None]).squeeze(1)
    smooth = -log_p.mean(dim=1)
    loss = (1.0 - smoothing) * nll + smoothing * smooth
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss
'''}
EXPECT = {"label_smoothing": "fail"}
