"""Correct, written differently in every task: Python-sorted buckets shuffled by random.Random seeded from
the generator each epoch; class-first balanced sampling; a new_zeros buffer filled row by row; sorting the
batch by hand for enforce_sorted=True and undoing it; record striding across all files."""
EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {
    "bucket_sampler_impl": '''
import random


class BucketBatchSampler(Sampler):
    """Batches of indices with similar lengths, in a random (generator-driven) order each epoch."""

    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        if generator is None:
            generator = torch.Generator()
            generator.manual_seed(int(torch.empty((), dtype=torch.int64).random_().item()))
        self.generator = generator
        lens = [int(v) for v in lengths]
        order = sorted(range(len(lens)), key=lens.__getitem__)
        n_full, rest = divmod(len(order), batch_size)
        self.batches = [order[k * batch_size:(k + 1) * batch_size] for k in range(n_full)]
        if rest and not drop_last:
            self.batches.append(order[n_full * batch_size:])

    def __iter__(self):
        seed = int(torch.randint(0, 2**62, (), generator=self.generator))
        picks = list(range(len(self.batches)))
        random.Random(seed).shuffle(picks)
        for k in picks:
            yield [int(i) for i in self.batches[k]]

    def __len__(self):
        return len(self.batches)
''',
    "balanced_impl": '''
def class_balanced_weights(targets):
    """Per-sample weights 1 / (size of the sample's class), as a float tensor of shape (N,)."""
    t = torch.as_tensor(targets).to(torch.int64)
    _, inverse, counts = torch.unique(t, return_inverse=True, return_counts=True)
    return counts.to(torch.float64).reciprocal()[inverse]


def make_balanced_sampler(targets, num_samples, generator=None):
    """A sampler over range(len(targets)) that draws every present class equally often."""
    t = torch.as_tensor(targets).to(torch.int64)
    members = [torch.nonzero(t == c).flatten() for c in torch.unique(t)]

    class ClassFirst(Sampler):
        def __iter__(self):
            for c in torch.randint(len(members), (num_samples,), generator=generator).tolist():
                m = members[c]
                yield int(m[int(torch.randint(len(m), (), generator=generator))])

        def __len__(self):
            return num_samples

    return ClassFirst()
''',
    "collate_impl": '''
def pad_collate(batch):
    """List of (sequence (L_i, *), label) -> (padded (B, T, *), lengths (B,), mask (B, T), labels (B,))."""
    seqs = [s for s, _ in batch]
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.int64)
    T = int(lengths.max())
    padded = seqs[0].new_zeros((len(seqs), T) + tuple(seqs[0].shape[1:]))
    for i, s in enumerate(seqs):
        padded[i, :len(s)] = s
    mask = torch.arange(T).expand(len(seqs), T) < lengths.unsqueeze(1)
    labels = torch.stack([torch.as_tensor(y).to(torch.int64).reshape(()) for _, y in batch])
    return padded, lengths, mask, labels
''',
    "packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    """Run a batch_first RNN/GRU/LSTM on a padded batch as if each sequence were alone; -> (output, last)."""
    lengths = torch.as_tensor(lengths).to("cpu", torch.int64)
    order = torch.argsort(lengths, descending=True, stable=True)
    inv = torch.argsort(order)
    packed = pack_padded_sequence(padded.index_select(0, order.to(padded.device)), lengths[order],
                                  batch_first=True, enforce_sorted=True)
    out, h = rnn(packed)
    h = h[0] if isinstance(h, tuple) else h
    out, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])
    output = out.index_select(0, inv.to(out.device))
    d = 2 if rnn.bidirectional else 1
    last = h[-d:].index_select(1, inv.to(h.device)).transpose(0, 1).reshape(len(inv), -1)
    return output, last
''',
    "stream_impl": '''
class ShardedFileStream(IterableDataset):
    """Stream (x, y) records from torch.save'd shard files, split across DataLoader workers."""

    def __init__(self, paths):
        self.paths = [os.fspath(p) for p in paths]

    def __iter__(self):
        info = get_worker_info()
        wid, nw = (0, 1) if info is None else (info.id, info.num_workers)
        k = 0
        for path in self.paths:
            shard = torch.load(path)
            xs, ys = shard["x"], shard["y"]
            del shard
            for j in range(len(ys)):
                if k % nw == wid:
                    yield xs[j], int(ys[j])
                k += 1
''',
}
