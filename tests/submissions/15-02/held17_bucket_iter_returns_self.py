"""Wrong: "every `__iter__` (epoch) yields those batches ... in a random order drawn only from `generator`".
This version makes the sampler its own iterator: `__iter__` draws the order, resets a position kept on the
sampler and returns `self`; `__next__` walks it. Two iterators over one sampler are then the same object:
`a, b = iter(s), iter(s)` share one position, so after `list(a)` the epoch `b` yields nothing (and reading
two epochs in turns splits one epoch between them, the second order drawn replacing the first)."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("        for k in torch.randperm(len(self.batches), generator=self.generator).tolist():\n"
     "            yield list(self.batches[k])\n",
     "        self._order = torch.randperm(len(self.batches), generator=self.generator).tolist()\n"
     "        self._pos = 0\n"
     "        return self\n"
     "\n"
     "    def __next__(self):\n"
     "        if self._pos >= len(self._order):\n"
     "            raise StopIteration\n"
     "        k = self._order[self._pos]\n"
     "        self._pos += 1\n"
     "        return list(self.batches[k])\n"))}
