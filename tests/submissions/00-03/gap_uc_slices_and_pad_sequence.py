"""Unusual but correct (gap round): accumulate_grads cuts micro-batches with range() slices and adds the
loss with math.fsum; pad_collate pads with pad_sequence (one clone per sample first) and builds the mask
by comparing an arange with the lengths; warmup_cosine_lr writes the cosine as cos^2 of half the angle."""
CELLS = {
    "accumulate_impl": '''def accumulate_grads(model, loss_fn, batch, micro_batches):
    """Accumulate the full-batch gradient of loss_fn over micro-batches; return the full-batch loss (float)."""
    inputs, targets = batch
    n = len(inputs)
    size = math.ceil(n / micro_batches)
    parts = []
    for start in range(0, n, size):
        xb, yb = inputs[start:start + size], targets[start:start + size]
        share = len(xb) / n
        loss = loss_fn(model(xb), yb) * share
        loss.backward()
        parts.append(loss.item())
    return math.fsum(parts)
''',
    "schedule_impl": '''def warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, start_factor=0.1, eta_min=0.0):
    """The learning rate at `step`: linear warm-up, then cosine decay to eta_min at total_steps."""
    if step > total_steps:
        return float(eta_min)
    if step >= warmup_steps:
        half = math.pi * (step - warmup_steps) / (total_steps - warmup_steps) / 2
        return float(eta_min + (base_lr - eta_min) * math.cos(half) ** 2)
    return float(base_lr * (start_factor + (1 - start_factor) * (step / warmup_steps)))
''',
    "collate_impl": '''def pad_collate(samples, padding_value=0.0):
    """Pad (sequence, label) samples of different lengths into one batch dict."""
    if not samples:
        raise ValueError("no samples to collate")
    seqs = [s.clone() for s, _ in samples]
    inputs = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=padding_value)
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
    mask = torch.arange(inputs.shape[1]).unsqueeze(0) < lengths.unsqueeze(1)
    labels = torch.tensor([int(label) for _, label in samples]).long()
    return {"inputs": inputs, "lengths": lengths, "mask": mask, "labels": labels}
''',
}
EXPECT = {"accumulate": "pass", "schedule": "pass", "collate": "pass"}
