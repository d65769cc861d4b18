"""Correct answers in yet another style (all tasks must keep full marks):
- bucket_sampler: lengths sorted longest first with sorted(); the chunks are cut from the *end* of that
  list, so the short chunk (if any) holds the shortest items; batch order from torch.randperm on the
  generator, a fresh generator seeded from torch.seed()-like global draw when none is given;
- balanced: torch.unique(return_inverse=True) for any labels, float32 weights summing to one, and a
  torch.multinomial-based Sampler subclass;
- collate: new_full with a zero of the sequences' dtype, lengths from shape[0], mask via a comparison;
- packed_rnn: no packing at all: every sequence is run alone on its real steps (slow but exact);
- stream: round robin over records, numbered across all files.
"""
EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}

CELLS = {
    "bucket_sampler_impl": '''
class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        lens = torch.as_tensor(lengths).tolist()
        order = sorted(range(len(lens)), key=lambda i: lens[i], reverse=True)
        order.reverse()                       # ascending, ties in reversed index order
        chunks = []
        stop = len(order)
        while stop > 0:
            chunks.append(order[max(0, stop - batch_size):stop])
            stop -= batch_size
        chunks.reverse()                      # the short chunk (if any) is now first
        if drop_last and chunks and len(chunks[0]) < batch_size:
            chunks = chunks[1:]
        self._chunks = chunks
        if generator is None:
            generator = torch.Generator()
            generator.manual_seed(int(torch.randint(-2**63, 2**63 - 1, (), dtype=torch.int64).item()))
        self._g = generator

    def __len__(self):
        return len(self._chunks)

    def __iter__(self):
        perm = torch.randperm(len(self._chunks), generator=self._g)
        return (list(self._chunks[int(k)]) for k in perm)
''',
    "balanced_impl": '''
class _Draws(Sampler):
    def __init__(self, w, n, g):
        self.w, self.n, self.g = w, n, g

    def __len__(self):
        return self.n

    def __iter__(self):
        yield from torch.multinomial(self.w.double(), self.n, True, generator=self.g).tolist()


def class_balanced_weights(targets):
    _, inverse, counts = torch.unique(torch.as_tensor(targets), return_inverse=True, return_counts=True)
    per_class = 1.0 / (counts.double() * len(counts))
    return per_class[inverse].float()


def make_balanced_sampler(targets, num_samples, generator=None):
    return _Draws(class_balanced_weights(targets), num_samples, generator)
''',
    "collate_impl": '''
def pad_collate(batch):
    seqs = [s for s, _ in batch]
    lens = [s.shape[0] for s in seqs]
    T = max(lens)
    padded = seqs[0].new_full((len(seqs), T, *seqs[0].shape[1:]), 0)
    for row, s in zip(padded, seqs):
        row[:s.shape[0]].copy_(s)
    lengths = torch.tensor(lens, dtype=torch.long)
    mask = torch.arange(T).unsqueeze(0).expand(len(seqs), T) < lengths.unsqueeze(1)
    labels = torch.tensor([int(y) for _, y in batch], dtype=torch.long)
    return padded, lengths, mask, labels
''',
    "packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    lens = [int(v) for v in torch.as_tensor(lengths).tolist()]
    d = 2 if rnn.bidirectional else 1
    outs, lasts = [], []
    for i, n in enumerate(lens):
        o, state = rnn(padded[i:i + 1, :n])
        h = state[0] if isinstance(state, tuple) else state
        outs.append(torch.nn.functional.pad(o[0], (0, 0, 0, padded.shape[1] - n)))
        lasts.append(torch.cat([h[h.shape[0] - d + k, 0] for k in range(d)]))
    return torch.stack(outs), torch.stack(lasts)
''',
    "stream_impl": '''
class ShardedFileStream(IterableDataset):
    def __init__(self, paths):
        self._paths = tuple(os.fspath(p) for p in paths)

    def __iter__(self):
        info = get_worker_info()
        me, every = (0, 1) if info is None else (info.id, info.num_workers)
        counter = 0
        for path in self._paths:
            data = torch.load(path)
            xs, ys = data["x"], data["y"]
            for j in range(ys.shape[0]):
                if counter % every == me:
                    yield xs[j], int(ys[j])
                counter += 1
''',
}
