"""Wrong: "`lengths`: a list (or 1-D tensor) of non-negative ints". This version breaks ties by index with
one integer sort key, `lengths * N + arange(N)`, computed in the dtype of the lengths it was given: a list
or an int64 tensor sorts right, but a uint8, int16 or int32 lengths tensor overflows (wraps) in the key, so
batches are no longer runs of consecutive lengths."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("        self.lengths = torch.as_tensor(lengths, dtype=torch.int64)\n",
     "        self.lengths = torch.as_tensor(lengths)\n"),
    ("        order = torch.argsort(self.lengths, stable=True).tolist()\n",
     "        n = len(self.lengths)\n"
     "        key = self.lengths * n + torch.arange(n, dtype=self.lengths.dtype)  # ties by index\n"
     "        order = torch.argsort(key).tolist()\n"))}
