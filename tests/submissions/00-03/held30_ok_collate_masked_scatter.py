"""Held-out round 30, a correct answer written unusually: the padded batch is a torch.full of padding_value on the
sequences' device into which the concatenated sequences are scattered with masked_scatter_ (the True positions
of the mask, row-major, are exactly the sequences' elements in order). Labels go through 0-dim int64 tensors."""
EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"collate_impl": '''def pad_collate(samples, padding_value=0.0):
    """Pad (sequence, label) samples of different lengths into one batch dict."""
    samples = list(samples)
    if not samples:
        raise ValueError("pad_collate: empty list of samples")
    seqs = [s for s, _ in samples]
    first = seqs[0]
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.int64)
    longest = max(int(n) for n in lengths.tolist())
    mask = torch.arange(longest).unsqueeze(0) < lengths.unsqueeze(1)
    features = tuple(first.shape[1:])
    inputs = torch.full((len(seqs), longest) + features, padding_value, dtype=first.dtype, device=first.device)
    where = mask.to(first.device).reshape(mask.shape + (1,) * len(features)).expand(inputs.shape)
    inputs.masked_scatter_(where, torch.cat([s.reshape((len(s),) + features) for s in seqs]))
    labels = torch.stack([torch.as_tensor(y).to(torch.int64).reshape(()) for _, y in samples])
    return {"inputs": inputs, "lengths": lengths, "mask": mask, "labels": labels}
'''}
