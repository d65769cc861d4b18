"""Known-wrong implementations (each must be rejected); the other tasks keep the reference solution:
- bucket_sampler: a plain shuffled BatchSampler, no length bucketing;
- stream: reads every file in __init__ (not streaming) and hands out one stored iterator (a single pass).
"""
EXPECT = {'bucket_sampler': 'fail', 'stream': 'fail', 'balanced': 'pass', 'collate': 'pass', 'packed_rnn': 'pass'}

CELLS = {
    'bucket_sampler_impl': '''
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
    'stream_impl': '''
class ShardedFileStream(IterableDataset):
    def __init__(self, paths):
        shards = [torch.load(p) for p in paths]
        self.records = [(x, int(y)) for sh in shards for x, y in zip(sh["x"], sh["y"])]
        self._it = iter(self.records)

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            return self._it
        return iter(self.records[info.id::info.num_workers])
''',
}
