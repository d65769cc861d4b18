"""Wrong: "only the last chunk can be short ... and with drop_last=True that short batch is dropped".
With drop_last=True this sampler always throws the last chunk away, also when every chunk is full
(len(lengths) a multiple of batch_size), so a whole batch of the longest items is lost each epoch."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("if self.drop_last and batches and len(batches[-1]) < self.batch_size:", "if self.drop_last and batches:"))}
