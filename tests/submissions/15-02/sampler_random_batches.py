"""Known wrong: shuffles the indices and chunks them (a plain BatchSampler): no length bucketing."""
EXPECT = {"bucket_sampler": "fail"}

CELLS = {
    "bucket_sampler_impl": '''
class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        self.n, self.bs, self.drop_last = len(lengths), batch_size, drop_last
        self.generator = generator

    def __iter__(self):
        perm = torch.randperm(self.n, generator=self.generator).tolist()
        for i in range(0, self.n, self.bs):
            b = perm[i:i + self.bs]
            if len(b) == self.bs or not self.drop_last:
                yield b

    def __len__(self):
        return self.n // self.bs if self.drop_last else -(-self.n // self.bs)
''',
}
