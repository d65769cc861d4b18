"""Known wrong: reads every file in __init__ (not streaming) and returns one stored iterator (one pass only)."""
EXPECT = {"stream": "fail"}

CELLS = {
    "stream_impl": '''
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
