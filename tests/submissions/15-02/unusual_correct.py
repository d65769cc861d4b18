"""Correct answers written quite differently from the reference: all tasks must pass."""
EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}

CELLS = {
    "bucket_sampler_impl": '''
class BucketBatchSampler(Sampler):
    """Plain-Python bookkeeping, sorted longest first; batch order from sorting random keys."""

    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        lens = [int(v) for v in (lengths.tolist() if isinstance(lengths, torch.Tensor) else lengths)]
        order = sorted(range(len(lens)), key=lambda i: (-lens[i], i))  # longest first
        self.batches = []
        while order:
            chunk, order = order[:batch_size], order[batch_size:]
            if len(chunk) == batch_size or not drop_last:
                self.batches.append(chunk)
        self.gen = generator if generator is not None else \\
            torch.Generator().manual_seed(int(torch.randint(0, 2**62, (1,)).item()))

    def __iter__(self):
        keys = torch.rand(len(self.batches), generator=self.gen)
        return iter([list(self.batches[k]) for k in keys.argsort().tolist()])

    def __len__(self):
        return len(self.batches)
''',
    "balanced_impl": '''
from collections import Counter


def class_balanced_weights(targets):
    labels = [int(t) for t in targets]
    counts = Counter(labels)
    return torch.tensor([len(labels) / counts[t] for t in labels], dtype=torch.float32)


class _MultinomialSampler(Sampler):
    def __init__(self, weights, n, generator):
        self.weights, self.n, self.generator = weights, n, generator

    def __len__(self):
        return self.n

    def __iter__(self):
        draws = torch.multinomial(self.weights.double(), self.n, replacement=True, generator=self.generator)
        yield from draws.tolist()


def make_balanced_sampler(targets, num_samples, generator=None):
    return _MultinomialSampler(class_balanced_weights(targets), num_samples, generator)
''',
    "collate_impl": '''
def pad_collate(batch):
    seqs, ys = zip(*batch)
    lengths = torch.as_tensor([len(s) for s in seqs])
    out = seqs[0].new_zeros((len(seqs), int(lengths.max())) + tuple(seqs[0].shape[1:]))
    for i, s in enumerate(seqs):
        out[i, :len(s)] = s
    steps = torch.arange(out.shape[1]).expand(len(seqs), -1)
    mask = steps.lt(lengths.unsqueeze(1))
    return out, lengths, mask, torch.as_tensor(ys, dtype=torch.long)
''',
    "packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    lengths = torch.as_tensor(lengths).long()
    order = torch.argsort(lengths, descending=True)
    undo = torch.empty_like(order)
    undo[order] = torch.arange(len(order))
    packed = pack_padded_sequence(padded[order], lengths[order], batch_first=True, enforce_sorted=True)
    out, state = rnn(packed)
    h = state[0] if rnn.mode == "LSTM" else state
    out, _ = pad_packed_sequence(out, batch_first=True)
    out = torch.nn.functional.pad(out, (0, 0, 0, padded.shape[1] - out.shape[1]))[undo]
    d = 2 if rnn.bidirectional else 1
    top = h.view(rnn.num_layers, d, h.shape[1], h.shape[-1])[-1]   # (d, B, H), sorted order (H: proj_size if set)
    last = top.permute(1, 0, 2).reshape(h.shape[1], d * h.shape[-1])[undo]
    return out, last
''',
    "stream_impl": '''
class ShardedFileStream(IterableDataset):
    """Record-level round robin over a global record counter."""

    def __init__(self, paths):
        self.paths = tuple(os.fspath(p) for p in paths)

    def __iter__(self):
        info = get_worker_info()
        me, every = (info.id, info.num_workers) if info is not None else (0, 1)
        k = 0
        for path in self.paths:
            shard = torch.load(path, weights_only=True)
            xs, ys = shard["x"], shard["y"]
            for j in range(len(ys)):
                if k % every == me:
                    yield xs[j], ys[j].item()
                k += 1
''',
}
