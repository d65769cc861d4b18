"""Known-wrong implementations written from the notebook text (each must be rejected):
- bucket_sampler: batches are chunks of the sorted index *tensor* (torch.split), yielded as tensors, not
  as lists of Python ints;
- balanced: the weights come back as a Python list of floats, not a float tensor;
- collate: labels built with torch.Tensor(...), a float32 tensor instead of int64;
- packed_rnn: for an LSTM it takes the last element of (h_n, c_n), the cell state;
- stream: get_worker_info() is called in __init__ (in the main process, where it is None), so no worker
  shards anything and every worker streams every file.
"""
EXPECT = {"bucket_sampler": "fail", "balanced": "fail", "collate": "fail", "packed_rnn": "fail", "stream": "fail"}

CELLS = {
    "bucket_sampler_impl": '''
class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        order = torch.argsort(torch.as_tensor(lengths), stable=True)
        chunks = list(torch.split(order, batch_size))
        if drop_last and chunks and len(chunks[-1]) < batch_size:
            chunks.pop()
        self.batches = chunks
        if generator is None:
            generator = torch.Generator()
            generator.manual_seed(int(torch.randint(0, 2**31, ()).item()))
        self.generator = generator

    def __iter__(self):
        for k in torch.randperm(len(self.batches), generator=self.generator):
            yield self.batches[k]

    def __len__(self):
        return len(self.batches)
''',
    "balanced_impl": '''
def class_balanced_weights(targets):
    labels = torch.as_tensor(targets).tolist()
    counts = {}
    for t in labels:
        counts[t] = counts.get(t, 0) + 1
    return [1.0 / counts[t] for t in labels]


def make_balanced_sampler(targets, num_samples, generator=None):
    return WeightedRandomSampler(class_balanced_weights(targets), num_samples, replacement=True,
                                 generator=generator)
''',
    "collate_impl": '''
def pad_collate(batch):
    seqs = [s for s, _ in batch]
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.int64)
    padded = pad_sequence(seqs, batch_first=True)
    mask = torch.arange(padded.shape[1])[None, :] < lengths[:, None]
    labels = torch.Tensor([y for _, y in batch])
    return padded, lengths, mask, labels
''',
    "packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    packed = pack_padded_sequence(padded, torch.as_tensor(lengths).cpu(), batch_first=True, enforce_sorted=False)
    out, h = rnn(packed)
    if isinstance(h, tuple):
        h = h[-1]
    output, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])
    d = 2 if rnn.bidirectional else 1
    return output, torch.cat(list(h[-d:]), dim=-1)
''',
    "stream_impl": '''
class ShardedFileStream(IterableDataset):
    def __init__(self, paths):
        self.paths = list(paths)
        info = get_worker_info()
        self.wid, self.nw = (0, 1) if info is None else (info.id, info.num_workers)

    def __iter__(self):
        for path in self.paths[self.wid::self.nw]:
            shard = torch.load(path)
            for x, y in zip(shard["x"], shard["y"]):
                yield x, int(y)
''',
}
