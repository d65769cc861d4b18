"""Known-wrong implementations written from the notebook text (each must be rejected):
- bucket_sampler: drop_last=True always removes the last batch, even when it is full;
- balanced: the generator is not passed on (the draws follow the global RNG, not the generator);
- collate: the padded tensor is allocated with torch.zeros (float32) whatever the sequences' dtype;
- packed_rnn: pad_packed_sequence without total_length (T shrinks to the longest sequence);
- stream: __init__ loads every shard to count the records (not streaming: fails if a file is written
  only after the dataset is built).
"""
EXPECT = {"bucket_sampler": "fail", "balanced": "fail", "collate": "fail", "packed_rnn": "fail", "stream": "fail"}

CELLS = {
    "bucket_sampler_impl": '''
class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        order = torch.argsort(torch.as_tensor(lengths), stable=True).tolist()
        self.batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
        if drop_last and self.batches:
            self.batches.pop()
        if generator is None:
            generator = torch.Generator()
            generator.manual_seed(int(torch.empty((), dtype=torch.int64).random_().item()))
        self.generator = generator

    def __iter__(self):
        for k in torch.randperm(len(self.batches), generator=self.generator).tolist():
            yield list(self.batches[k])

    def __len__(self):
        return len(self.batches)
''',
    "balanced_impl": '''
def class_balanced_weights(targets):
    targets = torch.as_tensor(targets, dtype=torch.int64)
    return 1.0 / torch.bincount(targets)[targets].double()


def make_balanced_sampler(targets, num_samples, generator=None):
    return WeightedRandomSampler(class_balanced_weights(targets), num_samples, replacement=True)
''',
    "collate_impl": '''
def pad_collate(batch):
    seqs = [s for s, _ in batch]
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.int64)
    T = int(lengths.max())
    padded = torch.zeros((len(seqs), T) + tuple(seqs[0].shape[1:]))
    for i, s in enumerate(seqs):
        padded[i, :len(s)] = s
    mask = torch.arange(T)[None, :] < lengths[:, None]
    labels = torch.tensor([int(y) for _, y in batch], dtype=torch.int64)
    return padded, lengths, mask, labels
''',
    "packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    packed = pack_padded_sequence(padded, torch.as_tensor(lengths).cpu(), batch_first=True, enforce_sorted=False)
    out, h = rnn(packed)
    if isinstance(h, tuple):
        h = h[0]
    output, _ = pad_packed_sequence(out, batch_first=True)
    d = 2 if rnn.bidirectional else 1
    return output, torch.cat([h[-d + k] for k in range(d)], dim=-1)
''',
    "stream_impl": '''
class ShardedFileStream(IterableDataset):
    def __init__(self, paths):
        self.paths = list(paths)
        self.sizes = [len(torch.load(p)["y"]) for p in self.paths]

    def __len__(self):
        return sum(self.sizes)

    def __iter__(self):
        info = get_worker_info()
        wid, nw = (0, 1) if info is None else (info.id, info.num_workers)
        for path in self.paths[wid::nw]:
            shard = torch.load(path)
            for x, y in zip(shard["x"], shard["y"]):
                yield x, int(y)
''',
}
