"""Held-out round 10, correct: accumulate_grads cuts the batch with tensor_split into micro_batches nearly equal
slices (sizes differ by at most one, so none is above ceil(N / micro_batches)), skips the empty ones, and weights
each micro-loss by its share of the samples with a tensor sum."""

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": '''
def accumulate_grads(model, loss_fn, batch, micro_batches):
    inputs, targets = batch
    n = len(inputs)
    pieces = [(xb, yb) for xb, yb in zip(inputs.tensor_split(micro_batches), targets.tensor_split(micro_batches))
              if len(xb)]
    parts = []
    for xb, yb in pieces:
        share = loss_fn(model(xb), yb) * (len(xb) / n)
        share.backward()
        parts.append(share.detach())
    return float(torch.stack(parts).sum())
'''}
