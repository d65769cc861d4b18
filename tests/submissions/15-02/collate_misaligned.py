"""Known wrong: sorts the sequences by length (for packing) but leaves the labels in the old order."""
EXPECT = {"collate": "fail"}

CELLS = {
    "collate_impl": '''
def pad_collate(batch):
    seqs = sorted([s for s, _ in batch], key=len, reverse=True)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = pad_sequence(seqs, batch_first=True)
    mask = torch.arange(padded.shape[1])[None] < lengths[:, None]
    return padded, lengths, mask, torch.tensor([y for _, y in batch])
''',
}
