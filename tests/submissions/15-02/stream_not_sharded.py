"""Known wrong: every worker streams every file (duplicates with num_workers > 1)."""
EXPECT = {"stream": "fail"}

CELLS = {
    "stream_impl": '''
class ShardedFileStream(IterableDataset):
    def __init__(self, paths):
        self.paths = list(paths)

    def __iter__(self):
        for path in self.paths:
            shard = torch.load(path)
            for x, y in zip(shard["x"], shard["y"]):
                yield x, int(y)
''',
}
