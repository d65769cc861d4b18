"""Correct, written unusually: the lengths are turned into Python ints first (exact for any integer dtype and any
size), the indices are sorted with Python's stable `sorted`, and each epoch's batch order is a Fisher-Yates
shuffle whose swaps are drawn one by one with `torch.randint(..., generator=...)` from the generator passed in
(or, with generator=None, from one generator made once and seeded from the global RNG). Nothing is drawn in
`__init__` or `__len__`; each `__iter__` is a generator function with its own state."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("        self.lengths = torch.as_tensor(lengths, dtype=torch.int64)\n", ""),
    ("        order = torch.argsort(self.lengths, stable=True).tolist()\n",
     "        lens = [int(v) for v in lengths]\n"
     "        order = sorted(range(len(lens)), key=lens.__getitem__)\n"),
    ("        for k in torch.randperm(len(self.batches), generator=self.generator).tolist():\n"
     "            yield list(self.batches[k])\n",
     "        ks = list(range(len(self.batches)))\n"
     "        for i in range(len(ks) - 1, 0, -1):\n"
     "            j = int(torch.randint(0, i + 1, (1,), generator=self.generator))\n"
     "            ks[i], ks[j] = ks[j], ks[i]\n"
     "        for k in ks:\n"
     "            yield [int(v) for v in self.batches[k]]\n"))}
