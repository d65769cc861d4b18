"""Held-out round 9: with drop_last=True the sampler pops the last batch whether or not it is short, so a
data set whose size is a multiple of batch_size loses a full batch of its longest items. The text: "only the
last chunk can be short ..., and with drop_last=True that short batch is dropped" (a full one is kept)."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("if self.drop_last and batches and len(batches[-1]) < self.batch_size:",
     "if self.drop_last and batches:"))}
