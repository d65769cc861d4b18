"""Correct, written differently from the reference: the bucket sampler keeps its batches as tensors and
shuffles with a key per batch, the weights come from torch.unique's counts, pad_collate fills a zero
tensor by hand, run_packed_rnn sorts the batch itself (enforce_sorted=True) and undoes the order, and the
stream shares records (not files) across workers. Every task must pass."""

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}

CELLS = {
    "bucket_sampler_impl": '''
class BucketBatchSampler(Sampler):
    """Chunks of the index order sorted by length; the chunk order is an argsort of fresh random keys."""

    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        lens = torch.tensor([int(n) for n in lengths], dtype=torch.float64)
        idx = torch.sort(lens, stable=True).indices
        full = len(idx) // batch_size
        self.chunks = [idx[j * batch_size:(j + 1) * batch_size] for j in range(full)]
        if len(idx) % batch_size and not drop_last:
            self.chunks.append(idx[full * batch_size:])
        if generator is None:
            seed = int(torch.randint(0, 2**62, (), dtype=torch.int64))
            generator = torch.Generator()
            generator.manual_seed(seed)
        self.g = generator

    def __iter__(self):
        keys = torch.rand(len(self.chunks), generator=self.g)
        for j in torch.argsort(keys).tolist():
            yield [int(i) for i in self.chunks[j]]

    def __len__(self):
        return len(self.chunks)
''',
    "balanced_impl": '''
def class_balanced_weights(targets):
    """Per-sample weights 1 / (size of the sample's class), as a float tensor of shape (N,)."""
    t = torch.tensor([int(y) for y in targets], dtype=torch.int64)
    _, inverse, counts = torch.unique(t, return_inverse=True, return_counts=True)
    return 12.0 / counts[inverse].to(torch.float32)


def make_balanced_sampler(targets, num_samples, generator=None):
    """A sampler over range(len(targets)) that draws every present class equally often."""
    class _Draws(Sampler):
        def __init__(self, w):
            self.w = w

        def __iter__(self):
            return iter(torch.multinomial(self.w, num_samples, True, generator=generator).tolist())

        def __len__(self):
            return num_samples

    return _Draws(class_balanced_weights(targets).double())
''',
    "collate_impl": '''
def pad_collate(batch):
    """List of (sequence (L_i, *), label) -> (padded (B, T, *), lengths (B,), mask (B, T), labels (B,))."""
    sizes = [int(s.shape[0]) for s, _ in batch]
    T = max(sizes)
    first = batch[0][0]
    padded = first.new_zeros((len(batch), T) + tuple(first.shape[1:]))
    mask = torch.zeros(len(batch), T, dtype=torch.bool)
    for b, ((s, _), n) in enumerate(zip(batch, sizes)):
        padded[b, :n] = s
        mask[b, :n] = True
    labels = torch.empty(len(batch), dtype=torch.int64)
    for b, (_, y) in enumerate(batch):
        labels[b] = int(y)
    return padded, torch.tensor(sizes, dtype=torch.int64), mask, labels
''',
    "packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    """Run a batch_first RNN/GRU/LSTM on a padded batch as if each sequence were alone; -> (output, last)."""
    lens = torch.as_tensor(lengths).to("cpu", torch.int64)
    order = torch.argsort(lens, descending=True, stable=True)
    back = torch.empty_like(order)
    back[order] = torch.arange(len(order))
    packed = pack_padded_sequence(padded[order.to(padded.device)], lens[order], batch_first=True,
                                  enforce_sorted=True)
    out, state = rnn(packed)
    h_n = state[0] if rnn.mode == "LSTM" else state
    out, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])
    dirs = 2 if rnn.bidirectional else 1
    top = h_n.reshape(rnn.num_layers, dirs, h_n.shape[1], h_n.shape[2])[-1]  # (D, B, H)
    last = top.permute(1, 0, 2).reshape(h_n.shape[1], -1)
    dev = back.to(padded.device)
    return out[dev], last[dev]
''',
    "stream_impl": '''
class ShardedFileStream(IterableDataset):
    """Stream (x, y) records from torch.save'd shard files, split across DataLoader workers."""

    def __init__(self, paths):
        self.paths = tuple(os.fspath(p) for p in paths)

    def __iter__(self):
        info = get_worker_info()
        me, team = (info.id, info.num_workers) if info is not None else (0, 1)
        seen = 0
        for path in self.paths:
            data = torch.load(path)
            xs, ys = data["x"], data["y"]
            for j in range(len(ys)):
                if (seen + j) % team == me:
                    yield xs[j], int(ys[j])
            seen += len(ys)
            del data, xs, ys
''',
}
