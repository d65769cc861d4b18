"""Wrong: "sort the indices by length, cut the sorted list into consecutive batches, and shuffle only the *order of
the batches*" / "every `__iter__` (epoch) yields those batches ... in a random order drawn only from `generator`"
(since this round the text adds "(a uniform shuffle: every order of the batches equally likely, as
`torch.randperm` gives)"). This version does not shuffle: each epoch draws one random offset `s` from the
generator and yields the batches in their sorted order rotated by `s` (s, s+1, ..., n-1, 0, ..., s-1). The first
batch is uniform over the seeds, the same seed repeats the epoch and each epoch draws anew, but only n of the n!
orders can ever occur: batch k+1 (the next-longer lengths) always follows batch k, so e.g. with 5 batches the
epoch [2, 0, 4, 1, 3] (batch numbers in sorted order) can never come."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("        for k in torch.randperm(len(self.batches), generator=self.generator).tolist():\n"
     "            yield list(self.batches[k])\n",
     "        n = len(self.batches)\n"
     "        if n == 0:\n"
     "            return\n"
     "        s = int(torch.randint(n, (), generator=self.generator))\n"
     "        for j in range(n):\n"
     "            yield list(self.batches[(s + j) % n])\n"))}
