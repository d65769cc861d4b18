"""Round 12 (held out), correct but unusual: the schedule's cosine half written as cos(x/2)**2 and the warm-up
as an interpolation between the two ends; AdamW keeps "step" as a float32 0-dim tensor as torch does and
divides through sqrt of a product; pad_collate writes every real position at once through the mask
(inputs[mask] = cat(seqs)) into a buffer from torch.full."""
from course.grading.class_run.submissions import edited

EXPECT = {"schedule": "pass", "adamw": "pass", "collate": "pass"}
CELLS = {
    "schedule_impl": '''def warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, start_factor=0.1, eta_min=0.0):
    """The learning rate at `step`: linear warm-up, then cosine decay to eta_min at total_steps."""
    if step > total_steps:
        return float(eta_min)
    if step < warmup_steps:
        frac = step / warmup_steps
        return float(base_lr * start_factor * (1.0 - frac) + base_lr * frac)
    half_angle = math.pi * (step - warmup_steps) / (2 * (total_steps - warmup_steps))
    return float(eta_min + (base_lr - eta_min) * math.cos(half_angle) ** 2)
''',
    "adamw_impl": edited("00-03", "adamw_impl", (
        "                    state[\"step\"] = 0\n",
        "                    state[\"step\"] = torch.tensor(0.0, dtype=torch.float32)\n"), (
        "                t = int(state[\"step\"]) + 1\n                state[\"step\"] = t\n",
        "                state[\"step\"] += 1\n                t = int(state[\"step\"].item())\n"), (
        "                denom = v.sqrt() / math.sqrt(1 - b2 ** t) + eps\n",
        "                denom = v.sqrt().div(math.sqrt(1 - b2 ** t)).add(eps)\n")),
    "collate_impl": '''def pad_collate(samples, padding_value=0.0):
    """Pad (sequence, label) samples of different lengths into one batch dict."""
    if not len(samples):
        raise ValueError("no samples")
    seqs = [s for s, _ in samples]
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
    width = max(int(n) for n in lengths.tolist())
    feat = tuple(seqs[0].shape[1:])
    mask = torch.arange(width).expand(len(seqs), width) < lengths.unsqueeze(1)
    inputs = torch.full((len(seqs), width, *feat), padding_value, dtype=seqs[0].dtype, device=seqs[0].device)
    inputs[mask] = torch.cat(seqs)
    labels = torch.tensor([y.item() if torch.is_tensor(y) else y for _, y in samples], dtype=torch.long)
    return dict(inputs=inputs, lengths=lengths, mask=mask, labels=labels)
''',
}
