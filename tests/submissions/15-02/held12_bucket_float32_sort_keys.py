"""Sorts by float32 copies of the lengths: lengths above 2**24 round together, so the indices are no
longer sorted by length and a batch is not a run of consecutive lengths."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail"}
CELLS = {"bucket_sampler_impl": edited("15-02", "bucket_sampler_impl", (
    "order = torch.argsort(self.lengths, stable=True).tolist()",
    "order = torch.argsort(self.lengths.float(), stable=True).tolist()"))}
