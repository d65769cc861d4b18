"""Known wrong: the batch order comes from the global torch RNG, not from the generator."""
EXPECT = {"bucket_sampler": "fail"}

CELLS = {
    "bucket_sampler_impl": '''
class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        order = torch.argsort(torch.as_tensor(lengths), stable=True).tolist()
        self.batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
        if drop_last and len(self.batches[-1]) < batch_size:
            self.batches.pop()
        self.generator = generator

    def __iter__(self):
        for k in torch.randperm(len(self.batches)).tolist():
            yield self.batches[k]

    def __len__(self):
        return len(self.batches)
''',
}
