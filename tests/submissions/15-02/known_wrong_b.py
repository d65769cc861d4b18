"""Known-wrong implementations, one per task (each must be rejected):
- bucket_sampler: re-seeds a fresh generator from the initial seed in __iter__ (every epoch the same order);
- balanced: WeightedRandomSampler(replacement=False) cannot oversample a rare class;
- collate: inverted mask and padding to a fixed 28 steps instead of the batch's longest sequence;
- packed_rnn: no packing, output gathered at L-1 (right for one direction only) and total_length forgotten;
- stream: contiguous per-worker ranges of n // num_workers records lose the remainder.
"""
EXPECT = {'bucket_sampler': 'fail', 'balanced': 'fail', 'collate': 'fail', 'packed_rnn': 'fail', 'stream': 'fail'}

CELLS = {
    'bucket_sampler_impl': '''
class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        order = torch.argsort(torch.as_tensor(lengths), stable=True).tolist()
        self.batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
        if drop_last and len(self.batches[-1]) < batch_size:
            self.batches.pop()
        self.seed = generator.initial_seed() if generator is not None else 0

    def __iter__(self):
        g = torch.Generator().manual_seed(self.seed)
        for k in torch.randperm(len(self.batches), generator=g).tolist():
            yield self.batches[k]

    def __len__(self):
        return len(self.batches)
''',
    'balanced_impl': '''
def class_balanced_weights(targets):
    targets = torch.as_tensor(targets)
    return 1.0 / torch.bincount(targets)[targets].double()


def make_balanced_sampler(targets, num_samples, generator=None):
    return WeightedRandomSampler(class_balanced_weights(targets), min(num_samples, len(targets)),
                                 replacement=False, generator=generator)
''',
    'collate_impl': '''
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
    'packed_rnn_impl': '''
def run_packed_rnn(rnn, padded, lengths):
    lengths = torch.as_tensor(lengths)
    out, _ = rnn(padded)
    mask = torch.arange(padded.shape[1])[None, :] < lengths[:, None]
    out = out * mask[..., None]
    last = out[torch.arange(len(lengths)), lengths - 1]
    return out[:, :int(lengths.max())], last
''',
    'stream_impl': '''
class ShardedFileStream(IterableDataset):
    def __init__(self, paths):
        self.paths = list(paths)

    def __iter__(self):
        info = get_worker_info()
        wid, nw = (0, 1) if info is None else (info.id, info.num_workers)
        for path in self.paths:
            shard = torch.load(path)
            per = len(shard["y"]) // nw
            for j in range(wid * per, (wid + 1) * per):
                yield shard["x"][j], int(shard["y"][j])
''',
}
