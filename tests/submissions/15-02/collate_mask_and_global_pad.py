"""Known wrong: mask marks the padding (inverted) and sequences are padded to a fixed 28 steps."""
EXPECT = {"collate": "zero"}

CELLS = {
    "collate_impl": '''
def pad_collate(batch):
    T = 28
    seqs = [s for s, _ in batch]
    lengths = torch.tensor([len(s) for s in seqs])
    padded = seqs[0].new_zeros((len(seqs), T) + tuple(seqs[0].shape[1:]))
    for i, s in enumerate(seqs):
        padded[i, :len(s)] = s
    mask = torch.arange(T)[None] >= lengths[:, None]
    return padded, lengths, mask, torch.tensor([y for _, y in batch])
''',
}
