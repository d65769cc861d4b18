"""Held-out gap round (wrong): label_smoothing_cross_entropy subtracts the row maximum from the caller's logits
in place (sub_) before the logsumexp. The loss is right (the shift is free) but the caller's logits change,
which F.cross_entropy never does; a leaf that requires grad is shifted out of place."""
CELLS = {"label_smoothing_impl": '''
def label_smoothing_cross_entropy(logits, target, smoothing=0.0, reduction="mean"):
    if not (0.0 <= smoothing <= 1.0):
        raise ValueError(f"smoothing must be in [0, 1], got {smoothing}")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"unknown reduction {reduction!r}")
    m = logits.detach().amax(dim=1, keepdim=True)
    if logits.requires_grad and logits.is_leaf:
        z = logits - m
    else:
        z = logits.sub_(m)
    log_p = z - z.exp().sum(dim=1, keepdim=True).log()
    nll = -log_p.gather(1, target[:, None]).squeeze(1)
    loss = (1.0 - smoothing) * nll - smoothing * log_p.mean(dim=1)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss
'''}
EXPECT = {"label_smoothing": "fail"}
