"""Held-out round 9: the stream converts every record to float32 ("models want float"), so uint8 images or
int64 token records come back with another dtype (and float64 records rounded). The text: iterating yields
"(X[j], int(Y[j])) for every record of every file"."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "fail"}
CELLS = {"stream_impl": edited(
    "15-02", "stream_impl",
    ("                yield x, int(y)", "                yield x.float(), int(y)"))}
