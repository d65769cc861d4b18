"""Wrong: "iterating yields `(X[j], int(Y[j]))` for every record of every file, each exactly once per pass". This
version "saves allocations": per file it makes one buffer `torch.empty_like(X[0])` and yields that same tensor
for every record after `copy_`ing the record into it. Consumed one at a time (`x.clone()` or a sum right away) the
values look right and the labels are all correct, but every yielded record is the same object: `list(stream)` (or
the items a DataLoader gathers before collating a batch) holds the file's last record `n` times, e.g. for a shard
`x = [[0, 0], [1, 1], [2, 2]]` the items of `list(ShardedFileStream([p]))` are all `[2, 2]`."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "fail"}
CELLS = {"stream_impl": edited(
    "15-02", "stream_impl",
    ("            for x, y in zip(shard[\"x\"], shard[\"y\"]):\n"
     "                yield x, int(y)\n",
     "            X, Y = shard[\"x\"], shard[\"y\"]\n"
     "            if len(Y) == 0:\n"
     "                continue\n"
     "            buf = torch.empty_like(X[0])\n"
     "            for j in range(len(Y)):\n"
     "                buf.copy_(X[j])\n"
     "                yield buf, int(Y[j])\n"))}
