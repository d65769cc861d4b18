"""Correct, written differently (held-out round 3): pad_collate pads each sequence with F.pad and stacks
them (a new tensor), the mask from lengths by broadcasting; warmup_cosine_lr with the cosine written as
cos^2 of half the angle, (1 + cos x) / 2 = cos(x / 2) ** 2, and min() for the tail."""
EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"collate_impl": '''
def pad_collate(samples, padding_value=0.0):
    """Pad (sequence, label) samples of different lengths into one batch dict."""
    if not samples:
        raise ValueError("no samples to collate")
    seqs, labels = zip(*samples)
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
    top = max(len(s) for s in seqs)
    rows = []
    for s in seqs:
        pad = [0, 0] * (s.dim() - 1) + [0, top - len(s)]
        rows.append(F.pad(s, pad, value=padding_value))
    inputs = torch.stack(rows)
    mask = lengths.unsqueeze(1) > torch.arange(top).unsqueeze(0)
    return {"inputs": inputs, "lengths": lengths, "mask": mask,
            "labels": torch.tensor([int(y) for y in labels]).long()}
''', "schedule_impl": '''
def warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, start_factor=0.1, eta_min=0.0):
    """The learning rate at `step`: linear warm-up, then cosine decay to eta_min at total_steps."""
    if step < warmup_steps:
        frac = step / warmup_steps
        return float(base_lr * ((1 - frac) * start_factor + frac))
    angle = math.pi * (min(step, total_steps) - warmup_steps) / (total_steps - warmup_steps)
    if step > total_steps:
        return float(eta_min)
    return float(eta_min + (base_lr - eta_min) * math.cos(angle / 2) ** 2)
'''}
