"""Held-out round 9: the stream splits each shard with X.split(1) and squeezes the pieces, which also drops
every other size-1 dimension (a (1, 28, 28) image comes back (28, 28)). The text: iterating yields
"(X[j], int(Y[j])) for every record of every file"."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "fail"}
CELLS = {"stream_impl": edited(
    "15-02", "stream_impl",
    ("            for x, y in zip(shard[\"x\"], shard[\"y\"]):\n                yield x, int(y)",
     "            for x, y in zip(shard[\"x\"].split(1), shard[\"y\"]):\n                yield x.squeeze(), int(y)"))}
