"""Wrong: "it **streams**: files are opened during iteration only, never in `__init__` (a file may not even exist
yet when the dataset is built)". This version opens nothing in `__init__`, but "fails early": it checks
`os.path.isfile(p)` for every path there and raises FileNotFoundError for one that is missing. A stream built
before its shards are written (`ShardedFileStream([folder / "shard0.pt"])`, then `torch.save(...)`, then iterate)
cannot even be made, although it would stream everything."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "fail"}
CELLS = {"stream_impl": edited(
    "15-02", "stream_impl",
    ("        self.paths = [str(p) for p in paths]\n",
     "        self.paths = [str(p) for p in paths]\n"
     "        for p in self.paths:\n"
     "            if not os.path.isfile(p):\n"
     "                raise FileNotFoundError(p)\n"))}
