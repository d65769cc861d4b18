"""bucket_sampler: with generator=None the new generator is seeded with torch.initial_seed() (a fixed value
until the next manual_seed) instead of a number drawn from the global RNG, so two samplers made in a row
shuffle identically; collate: labels stacked with torch.as_tensor keep the dtype of 0-d tensor labels
(int32, uint8) instead of becoming int64."""
EXPECT = {"bucket_sampler": "fail", "balanced": "pass", "collate": "fail", "packed_rnn": "pass", "stream": "pass"}

CELLS = {
    "bucket_sampler_impl": '''
class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        if batch_size < 1:
            raise ValueError("batch_size must be positive")
        lengths = torch.as_tensor(lengths, dtype=torch.int64)
        if generator is None:
            generator = torch.Generator().manual_seed(torch.initial_seed())
        self.generator = generator
        order = torch.argsort(lengths, stable=True).tolist()
        self.batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
        if drop_last and self.batches and len(self.batches[-1]) < batch_size:
            self.batches.pop()

    def __iter__(self):
        for k in torch.randperm(len(self.batches), generator=self.generator).tolist():
            yield list(self.batches[k])

    def __len__(self):
        return len(self.batches)
''',
    "collate_impl": '''
def pad_collate(batch):
    seqs = [s for s, _ in batch]
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.int64)
    padded = pad_sequence(seqs, batch_first=True)
    mask = torch.arange(padded.shape[1])[None, :] < lengths[:, None]
    labels = torch.stack([torch.as_tensor(y) for _, y in batch])
    return padded, lengths, mask, labels
''',
}
