"""Known-wrong implementations written from the notebook text (each must be rejected):
- bucket_sampler: with generator=None it builds torch.Generator() without seeding it from the global RNG
  (every sampler built without a generator replays the same order, whatever torch.manual_seed said);
- balanced: counts from torch.unique(return_counts=True) indexed by the label itself (only right when the
  labels are exactly 0..K-1; labels such as 0, 3, 7 break it);
- collate: lengths found by counting the steps that are not all zero (a real step of zeros is lost);
- packed_rnn: last = h_n[-1], the top layer's *backward* direction alone for a bidirectional RNN;
- stream: yields the label as the 0-dim tensor Y[j] instead of int(Y[j]).
"""
EXPECT = {"bucket_sampler": "fail", "balanced": "fail", "collate": "fail", "packed_rnn": "fail", "stream": "fail"}

CELLS = {
    "bucket_sampler_impl": '''
class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        order = torch.argsort(torch.as_tensor(lengths), stable=True).tolist()
        self.batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
        if drop_last and self.batches and len(self.batches[-1]) < batch_size:
            self.batches.pop()
        self.generator = generator if generator is not None else torch.Generator()

    def __iter__(self):
        for k in torch.randperm(len(self.batches), generator=self.generator).tolist():
            yield list(self.batches[k])

    def __len__(self):
        return len(self.batches)
''',
    "balanced_impl": '''
def class_balanced_weights(targets):
    targets = torch.as_tensor(targets)
    classes, counts = torch.unique(targets, return_counts=True)
    return 1.0 / counts[targets].double()


def make_balanced_sampler(targets, num_samples, generator=None):
    return WeightedRandomSampler(class_balanced_weights(targets), num_samples, replacement=True,
                                 generator=generator)
''',
    "collate_impl": '''
def pad_collate(batch):
    seqs = [s for s, _ in batch]
    padded = pad_sequence(seqs, batch_first=True)
    real = padded.reshape(padded.shape[0], padded.shape[1], -1).ne(0).any(-1)
    lengths = real.sum(1).to(torch.int64)
    mask = torch.arange(padded.shape[1])[None, :] < lengths[:, None]
    labels = torch.tensor([int(y) for _, y in batch], dtype=torch.int64)
    return padded, lengths, mask, labels
''',
    "packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    packed = pack_padded_sequence(padded, torch.as_tensor(lengths).cpu(), batch_first=True, enforce_sorted=False)
    out, h = rnn(packed)
    if isinstance(h, tuple):
        h = h[0]
    output, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])
    return output, h[-1]
''',
    "stream_impl": '''
class ShardedFileStream(IterableDataset):
    def __init__(self, paths):
        self.paths = list(paths)

    def __iter__(self):
        info = get_worker_info()
        wid, nw = (0, 1) if info is None else (info.id, info.num_workers)
        for path in self.paths[wid::nw]:
            shard = torch.load(path)
            for j in range(len(shard["y"])):
                yield shard["x"][j], shard["y"][j]
''',
}
