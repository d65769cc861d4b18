"""Leaves samples of length 0 out of every epoch ("nothing to train on"), though lengths are any
non-negative ints and every index belongs to exactly one batch."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail"}
CELLS = {"bucket_sampler_impl": edited("15-02", "bucket_sampler_impl", (
    "order = torch.argsort(self.lengths, stable=True).tolist()",
    "order = [i for i in torch.argsort(self.lengths, stable=True).tolist() if self.lengths[i] > 0]"))}
