"""Held-out round 22, correct, written unusually: pad_collate pads every sequence on its own with F.pad (the pad
list counts the feature dimensions as zero-padded, the length dimension as padded at its end) and stacks the
rows; the mask comes from comparing a position grid with the lengths, the labels from torch.as_tensor with an
int64 dtype. F.pad and torch.stack both allocate new memory, keep -0.0 and +-inf padding values, work on
non-contiguous and empty sequences and on any device. It must keep full marks."""
EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"collate_impl": '''def pad_collate(samples, padding_value=0.0):
    """Pad (sequence, label) samples of different lengths into one batch dict."""
    if not samples:
        raise ValueError("pad_collate: no samples")
    seqs = [s for s, _ in samples]
    lengths = torch.as_tensor([int(s.shape[0]) for s in seqs], dtype=torch.int64)
    longest = max(int(s.shape[0]) for s in seqs)
    rows = []
    for s in seqs:
        pad = [0, 0] * (s.dim() - 1) + [0, longest - s.shape[0]]
        rows.append(F.pad(s, pad, mode="constant", value=padding_value))
    inputs = torch.stack(rows)
    positions = torch.arange(longest, dtype=torch.int64).expand(len(seqs), longest)
    mask = positions < lengths.unsqueeze(1)
    labels = torch.stack([torch.as_tensor(y, dtype=torch.int64).reshape(()) for _, y in samples])
    return {"inputs": inputs, "lengths": lengths, "mask": mask, "labels": labels}
'''}
