"""Held-out gap round (wrong): label_smoothing_cross_entropy builds its smoothed target with torch.zeros(N, C)
and no device=, so logits on a GPU (the CIFAR-10 demo trains on DEVICE) meet a CPU target and it raises."""
CELLS = {"label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if not (0.0 <= smoothing <= 1.0):
        raise ValueError(f"smoothing must be in [0, 1], got {smoothing}")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"unknown reduction {reduction!r}")
    n, c = logits.shape
    log_p = F.log_softmax(logits, dim=1)
    q = torch.full((n, c), smoothing / c, dtype=log_p.dtype)
    q[torch.arange(n), target.cpu()] += 1.0 - smoothing
    loss = -(q * log_p).sum(dim=1)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss
'''}
EXPECT = {"label_smoothing": "fail"}
