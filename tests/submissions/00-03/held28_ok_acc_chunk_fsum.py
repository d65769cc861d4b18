"""Held-out round 28, correct: splits with torch.chunk (at most micro_batches chunks of ceil(N/m) samples, never
empty), weights each micro-loss by dividing by N and multiplying by n_j as a 0-dim tensor of the loss's dtype
and device, and sums the returned loss with math.fsum."""
EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": '''def accumulate_grads(model, loss_fn, batch, micro_batches):
    """Accumulate the full-batch gradient of loss_fn over micro-batches; return the full-batch loss (float)."""
    inputs, targets = batch
    n = len(inputs)
    parts = []
    for xb, yb in zip(torch.chunk(inputs, micro_batches), torch.chunk(targets, micro_batches)):
        share = len(xb) / n
        loss = loss_fn(model(xb), yb)
        loss.mul(share).backward()
        parts.append(float(loss.detach()) * share)
    return math.fsum(parts)
'''}
