"""Known wrong: contiguous per-worker record ranges of size n // num_workers lose the remainder."""
EXPECT = {"stream": "fail"}

CELLS = {
    "stream_impl": '''
class ShardedFileStream(IterableDataset):
    def __init__(self, paths):
        self.paths = list(paths)

    def __iter__(self):
        info = get_worker_info()
        wid, nw = (0, 1) if info is None else (info.id, info.num_workers)
        for path in self.paths:
            shard = torch.load(path)
            per = len(shard["y"]) // nw
            for j in range(wid * per, (wid + 1) * per):
                yield shard["x"][j], int(shard["y"][j])
''',
}
