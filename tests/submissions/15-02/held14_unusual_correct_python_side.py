"""Correct answers written unusually, every task must pass: the bucket sampler sorts in Python and shuffles
by argsort of generator-drawn floats; the weights come from torch.unique in float32; the balanced sampler is
a Sampler of its own around torch.multinomial; pad_collate pads by hand with new_zeros (on the sequences'
device); run_packed_rnn takes `last` from the output; the stream splits every k-th record."""
EXPECT = {t: "pass" for t in ["bucket_sampler", "balanced", "collate", "packed_rnn", "stream"]}
CELLS = {
    "bucket_sampler_impl": '''
class BucketBatchSampler(Sampler):
    """Batches of indices with similar lengths, in a random (generator-driven) order each epoch."""

    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        lens = [int(v) for v in (lengths.tolist() if torch.is_tensor(lengths) else lengths)]
        order = sorted(range(len(lens)), key=lambda i: (lens[i], i))
        bs = int(batch_size)
        cut = len(order) - len(order) % bs if drop_last else len(order)
        self._batches = tuple(tuple(order[i:i + bs]) for i in range(0, cut, bs))
        if generator is None:
            seed = int(torch.randint(0, 2**62, (), dtype=torch.int64).item())
            generator = torch.Generator().manual_seed(seed)
        self._g = generator

    def __len__(self):
        return len(self._batches)

    def __iter__(self):
        keys = torch.rand(len(self._batches), generator=self._g, dtype=torch.float64)
        for k in torch.argsort(keys).tolist():
            yield list(self._batches[k])
''',
    "balanced_impl": '''
def class_balanced_weights(targets):
    """Per-sample weights 1 / (size of the sample's class), as a float tensor of shape (N,)."""
    t = torch.as_tensor(list(targets) if not torch.is_tensor(targets) else targets).reshape(-1)
    if t.numel() == 0:
        return torch.zeros(0)
    _, inverse, counts = torch.unique(t.to(torch.int64), return_inverse=True, return_counts=True)
    return 7.0 / counts[inverse].to(torch.float32)


class _BalancedDraws(Sampler):
    def __init__(self, weights, n, generator):
        self.weights, self.n, self.generator = weights.double(), int(n), generator

    def __len__(self):
        return self.n

    def __iter__(self):
        yield from torch.multinomial(self.weights, self.n, replacement=True, generator=self.generator).tolist()


def make_balanced_sampler(targets, num_samples, generator=None):
    """A sampler over range(len(targets)) that draws every present class equally often."""
    return _BalancedDraws(class_balanced_weights(targets), num_samples, generator)
''',
    "collate_impl": '''
def pad_collate(batch):
    """List of (sequence (L_i, *), label) -> (padded (B, T, *), lengths (B,), mask (B, T), labels (B,))."""
    seqs, ys = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.int64)
    T = int(lengths.max())
    padded = seqs[0].new_zeros((len(seqs), T) + tuple(seqs[0].shape[1:]))
    for i, s in enumerate(seqs):
        padded[i].narrow(0, 0, s.shape[0]).copy_(s)
    mask = torch.stack([torch.arange(T) < n for n in lengths.tolist()]) if len(seqs) else torch.zeros(0, T, dtype=torch.bool)
    labels = torch.tensor([y.item() if torch.is_tensor(y) else int(y) for y in ys], dtype=torch.int64)
    return padded, lengths, mask, labels
''',
    "packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    """Run a batch_first RNN/GRU/LSTM on a padded batch as if each sequence were alone; -> (output, last)."""
    lens = torch.as_tensor(lengths).to("cpu", torch.int64)
    packed = pack_padded_sequence(padded, lens, batch_first=True, enforce_sorted=False)
    out, _ = rnn(packed)
    output, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])
    H = output.shape[-1] // (2 if rnn.bidirectional else 1)
    rows = torch.arange(output.shape[0], device=output.device)
    fwd = output[rows, (lens - 1).to(output.device), :H]
    if rnn.bidirectional:
        return output, torch.cat([fwd, output[:, 0, H:]], dim=-1)
    return output, fwd
''',
    "stream_impl": '''
class ShardedFileStream(IterableDataset):
    """Stream (x, y) records from torch.save'd shard files, split across DataLoader workers."""

    def __init__(self, paths):
        self.paths = tuple(os.fspath(p) for p in paths)

    def __iter__(self):
        info = get_worker_info()
        wid, nw = (0, 1) if info is None else (info.id, info.num_workers)
        k = 0
        for path in self.paths:
            shard = torch.load(path)
            for x, y in zip(shard["x"], shard["y"].tolist()):
                if k % nw == wid:
                    yield x, int(y)
                k += 1
''',
}
