"""Gap-hunting round (issue 39, 2026-12-01): ShardedFileStream.__iter__ loads every file of its share before it yields the first record (opened during iteration, but all of them at once). Breaks: "it streams ... Loading one file at a time also keeps memory small"."""
from course.grading.class_run.submissions import edited

CELLS = {"stream_impl": edited("15-02", "stream_impl", ('        for path in self.paths[wid::nw]:\n            shard = torch.load(path)\n            for x, y in zip(shard["x"], shard["y"]):\n                yield x, int(y)', '        shards = [torch.load(path) for path in self.paths[wid::nw]]\n        for shard in shards:\n            for x, y in zip(shard["x"], shard["y"]):\n                yield x, int(y)'))}
EXPECT = {"stream": "fail"}
