"""Known-wrong implementations, one per task (each must be rejected):
- bucket_sampler: batch order drawn from the global torch RNG, not from the generator (not reproducible);
- balanced: per-class weights handed to WeightedRandomSampler (draws indices 0..K-1 only);
- collate: sequences sorted by length but labels left in the old order (misaligned);
- packed_rnn: pack_padded_sequence with the default enforce_sorted=True on unsorted lengths (raises);
- stream: no sharding, every worker streams every file (duplicates with num_workers > 1).
"""
EXPECT = {'bucket_sampler': 'fail', 'balanced': 'fail', 'collate': 'fail', 'packed_rnn': 'zero', 'stream': 'fail'}

CELLS = {
    'bucket_sampler_impl': '''
class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        order = torch.argsort(torch.as_tensor(lengths), stable=True).tolist()
        self.batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
        if drop_last and len(self.batches[-1]) < batch_size:
            self.batches.pop()
        self.generator = generator

    def __iter__(self):
        for k in torch.randperm(len(self.batches)).tolist():
            yield self.batches[k]

    def __len__(self):
        return len(self.batches)
''',
    'balanced_impl': '''
def class_balanced_weights(targets):
    targets = torch.as_tensor(targets)
    return 1.0 / torch.bincount(targets)[targets].double()


def make_balanced_sampler(targets, num_samples, generator=None):
    counts = torch.bincount(torch.as_tensor(targets)).double()
    per_class = torch.where(counts > 0, 1.0 / counts, torch.zeros_like(counts))
    return WeightedRandomSampler(per_class, num_samples, replacement=True, generator=generator)
''',
    'collate_impl': '''
def pad_collate(batch):
    seqs = sorted([s for s, _ in batch], key=len, reverse=True)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = pad_sequence(seqs, batch_first=True)
    mask = torch.arange(padded.shape[1])[None] < lengths[:, None]
    return padded, lengths, mask, torch.tensor([y for _, y in batch])
''',
    'packed_rnn_impl': '''
def run_packed_rnn(rnn, padded, lengths):
    packed = pack_padded_sequence(padded, lengths, batch_first=True)
    out, h = rnn(packed)
    if isinstance(h, tuple):
        h = h[0]
    out, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])
    d = 2 if rnn.bidirectional else 1
    return out, torch.cat([h[-d + k] for k in range(d)], dim=-1)
''',
    'stream_impl': '''
class ShardedFileStream(IterableDataset):
    def __init__(self, paths):
        self.paths = list(paths)

    def __iter__(self):
        for path in self.paths:
            shard = torch.load(path)
            for x, y in zip(shard["x"], shard["y"]):
                yield x, int(y)
''',
}
