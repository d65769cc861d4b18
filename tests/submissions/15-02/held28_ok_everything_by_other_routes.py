"""Correct, written unusually, in every task:
* bucket_sampler: the lengths become Python ints, the indices are sorted with Python's stable `sorted`, and each
  epoch's batch order is the argsort of `torch.rand(n, dtype=float64, generator=...)` (a uniform random
  permutation drawn only from the generator passed in, or from one generator made once and seeded from a
  global-RNG draw);
* balanced: counts come from `torch.unique(..., return_inverse=True, return_counts=True)`, the weights are
  `max_count / count` (a positive common factor), in float32; the sampler is a WeightedRandomSampler;
* collate: every sequence is padded with `torch.nn.functional.pad`-style `cat` with `new_zeros` and stacked;
  the mask compares `lengths[:, None] > arange(T)`; labels go through `operator.index`;
* packed_rnn: the batch is sorted by hand (longest first), packed with `enforce_sorted=True`, and output and
  `h_n` are put back in the caller's order with the inverse permutation;
* stream: files are split with `itertools.islice(paths, id, None, k)`, records with `unbind(0)` and `tolist()`."""
EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {
    "bucket_sampler_impl": '''class BucketBatchSampler(Sampler):
    """Batches of indices with similar lengths, in a random (generator-driven) order each epoch."""

    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        ### BEGIN SOLUTION
        lens = [int(v) for v in (lengths.tolist() if torch.is_tensor(lengths) else lengths)]
        order = sorted(range(len(lens)), key=lens.__getitem__)
        self._batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
        if drop_last and self._batches and len(self._batches[-1]) != batch_size:
            del self._batches[-1]
        if generator is None:
            seed = int(torch.randint(-2**63, 2**63 - 1, (), dtype=torch.int64))
            generator = torch.Generator().manual_seed(seed & (2**64 - 1))
        self._gen = generator
        ### END SOLUTION

    def __iter__(self):
        ### BEGIN SOLUTION
        n = len(self._batches)
        keys = torch.rand(n, dtype=torch.float64, generator=self._gen)
        for k in keys.argsort().tolist():
            yield [int(i) for i in self._batches[k]]
        ### END SOLUTION

    def __len__(self):
        ### BEGIN SOLUTION
        return len(self._batches)
        ### END SOLUTION
''',
    "balanced_impl": '''def class_balanced_weights(targets):
    """Per-sample weights 1 / (size of the sample's class), as a float tensor of shape (N,)."""
    ### BEGIN SOLUTION
    t = torch.as_tensor(targets).reshape(-1).to(torch.int64)
    if t.numel() == 0:
        return torch.zeros(0, dtype=torch.float32)
    _, inverse, counts = torch.unique(t, return_inverse=True, return_counts=True)
    return (counts.max().double() / counts.double())[inverse].to(torch.float32)
    ### END SOLUTION


def make_balanced_sampler(targets, num_samples, generator=None):
    """A sampler over range(len(targets)) that draws every present class equally often."""
    ### BEGIN SOLUTION
    return WeightedRandomSampler(class_balanced_weights(targets).double(), num_samples, True, generator)
    ### END SOLUTION
''',
    "collate_impl": '''def pad_collate(batch):
    """List of (sequence (L_i, *), label) -> (padded (B, T, *), lengths (B,), mask (B, T), labels (B,))."""
    ### BEGIN SOLUTION
    import operator
    T = max(s.shape[0] for s, _ in batch)
    rows = []
    for s, _ in batch:
        tail = s.new_zeros((T - s.shape[0],) + tuple(s.shape[1:]))
        rows.append(torch.cat([s, tail], dim=0))
    padded = torch.stack(rows, dim=0)
    lengths = torch.tensor([s.shape[0] for s, _ in batch], dtype=torch.int64)
    mask = lengths[:, None] > torch.arange(T, dtype=torch.int64)[None, :]
    labels = torch.tensor([operator.index(y) for _, y in batch], dtype=torch.int64)
    return padded, lengths, mask, labels
    ### END SOLUTION
''',
    "packed_rnn_impl": '''def run_packed_rnn(rnn, padded, lengths):
    """Run a batch_first RNN/GRU/LSTM on a padded batch as if each sequence were alone; -> (output, last)."""
    ### BEGIN SOLUTION
    lengths = torch.as_tensor(lengths).to(device="cpu", dtype=torch.int64)
    order = torch.argsort(lengths, descending=True, stable=True)
    inverse = torch.empty_like(order)
    inverse[order] = torch.arange(order.numel())
    packed = pack_padded_sequence(padded.index_select(0, order.to(padded.device)), lengths[order],
                                  batch_first=True, enforce_sorted=True)
    out, state = rnn(packed)
    h = state[0] if isinstance(state, tuple) else state
    output, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])
    output = output.index_select(0, inverse.to(output.device))
    h = h.index_select(1, inverse.to(h.device))
    d = 2 if rnn.bidirectional else 1
    last = h[h.shape[0] - d:].permute(1, 0, 2).reshape(h.shape[1], -1)
    return output, last
    ### END SOLUTION
''',
    "stream_impl": '''class ShardedFileStream(IterableDataset):
    """Stream (x, y) records from torch.save'd shard files, split across DataLoader workers."""

    def __init__(self, paths):
        ### BEGIN SOLUTION
        self._files = tuple(os.fspath(p) for p in paths)
        ### END SOLUTION

    def __iter__(self):
        ### BEGIN SOLUTION
        import itertools
        info = get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        for path in itertools.islice(self._files, start, None, step):
            data = torch.load(path)
            xs, ys = data["x"].unbind(0), data["y"].tolist()
            del data
            for x, y in zip(xs, ys):
                yield x, int(y)
        ### END SOLUTION
''',
}
