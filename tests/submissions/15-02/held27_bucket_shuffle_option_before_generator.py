"""Wrong: the cell's signature `BucketBatchSampler(lengths, batch_size, drop_last=False, generator=None)` and
"every `__iter__` (epoch) yields those batches ... in a random order drawn **only** from `generator`; the same seed
gives the same sequence of batches". This version adds a `shuffle=True` option before `generator`:
`(lengths, batch_size, drop_last=False, shuffle=True, generator=None)`. A call that passes the generator by
position, `BucketBatchSampler(lengths, 8, False, g)`, hands it to `shuffle` (truthy), and the sampler makes its own
generator seeded from the global RNG: the same seed no longer gives the same batches."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("    def __init__(self, lengths, batch_size, drop_last=False, generator=None):\n",
     "    def __init__(self, lengths, batch_size, drop_last=False, shuffle=True, generator=None):\n"),
    ("        self.drop_last = bool(drop_last)\n",
     "        self.drop_last = bool(drop_last)\n        self.shuffle = bool(shuffle)\n"),
    ("        for k in torch.randperm(len(self.batches), generator=self.generator).tolist():\n",
     "        n = len(self.batches)\n"
     "        ks = torch.randperm(n, generator=self.generator).tolist() if self.shuffle else range(n)\n"
     "        for k in ks:\n"))}
