"""Correct, written unusually: accumulate_grads splits with chunk() (ceil(N/k) per piece, never empty),
weights by the targets' share and sums the loss with math.fsum; warmup_cosine_lr checks the
branches from the end and interpolates the warm-up from its low end; pad_collate uses pad_sequence and
builds the mask by comparison with the lengths."""
EXPECT = {"accumulate": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {
    "accumulate_impl": '''
def accumulate_grads(model, loss_fn, batch, micro_batches):
    """Accumulate the full-batch gradient of loss_fn over micro-batches; return the full-batch loss (float)."""
    inputs, targets = batch
    parts = []
    for xb, yb in zip(inputs.chunk(micro_batches), targets.chunk(micro_batches)):
        share = yb.shape[0] / targets.shape[0]
        loss = loss_fn(model(xb), yb)
        (share * loss).backward()
        parts.append(share * loss.item())
    return math.fsum(parts)
''',
    "schedule_impl": '''
def warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, start_factor=0.1, eta_min=0.0):
    """The learning rate at `step`: linear warm-up, then cosine decay to eta_min at total_steps."""
    if step > total_steps:
        return float(eta_min)
    if step >= warmup_steps:
        angle = math.pi * (step - warmup_steps) / (total_steps - warmup_steps)
        return float(eta_min + 0.5 * (base_lr - eta_min) * (1.0 + math.cos(angle)))
    low = base_lr * start_factor
    return float(low + (base_lr - low) * step / warmup_steps)
''',
    "collate_impl": '''
def pad_collate(samples, padding_value=0.0):
    """Pad (sequence, label) samples of different lengths into one batch dict."""
    if not samples:
        raise ValueError("no samples to collate")
    seqs, labels = zip(*samples)
    inputs = torch.nn.utils.rnn.pad_sequence(list(seqs), batch_first=True, padding_value=padding_value)
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
    positions = torch.arange(inputs.shape[1], dtype=torch.long)
    mask = positions.unsqueeze(0) < lengths.unsqueeze(1)
    labels = torch.stack([torch.as_tensor(y).to(torch.int64) for y in labels])
    return {"inputs": inputs, "lengths": lengths, "mask": mask, "labels": labels}
''',
}
