"""Wrong: "only the last chunk can be short ..., and with `drop_last=True` that short batch is dropped". This
version drops the short last batch only when it is not the only one (`len(batches) > 1`, "never return an empty
epoch"): with fewer samples than `batch_size`, e.g. `BucketBatchSampler([3, 1, 2], 4, drop_last=True)`, it keeps
the single short batch `[1, 2, 0]` and `len()` is 1 instead of 0 (as `BatchSampler(..., 4, drop_last=True)` gives)."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("        if self.drop_last and batches and len(batches[-1]) < self.batch_size:\n",
     "        if self.drop_last and len(batches) > 1 and len(batches[-1]) < self.batch_size:\n"))}
