"""ShardedFileStream: narrows self.paths to the worker's share inside __iter__, so with persistent workers the second epoch narrows again and loses records. Breaks 'it can be iterated again (every pass yields everything again)'."""
EXPECT = {'bucket_sampler': 'pass', 'balanced': 'pass', 'collate': 'pass', 'packed_rnn': 'pass', 'stream': 'fail'}

CELLS = {
    'stream_impl': '''
class ShardedFileStream(IterableDataset):
    def __init__(self, paths):
        self.paths = list(paths)

    def __iter__(self):
        info = get_worker_info()
        if info is not None:
            self.paths = self.paths[info.id::info.num_workers]
        for path in self.paths:
            shard = torch.load(path)
            for x, y in zip(shard["x"], shard["y"]):
                yield x, int(y)
''',
}
