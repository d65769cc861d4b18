"""Wrong: "`lengths`: a list (or 1-D tensor) of non-negative ints" / "`__len__` is the number of batches per
epoch". The empty list is such a list (an empty data set or an empty shard): the reference gives 0 batches,
`len() == 0` and an empty epoch. This version validates the lengths with `self.lengths.min() < 0`, which raises
a RuntimeError ("min(): Expected reduction dim ...") for `BucketBatchSampler([], 4)` (and for an empty int64
tensor); every non-empty input behaves exactly like the reference."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("        self.batch_size = int(batch_size)\n",
     "        if int(self.lengths.min()) < 0:\n"
     "            raise ValueError(\"lengths must be non-negative\")\n"
     "        self.batch_size = int(batch_size)\n"))}
