"""Wrong: "a sampler yielding `num_samples` indices ... every pass over it (every epoch) draws anew, as
`WeightedRandomSampler` does". This version writes its own sampler whose `__iter__` returns the sampler
itself, with the pass's draws and position kept on `self`: a single `list(sampler)` is right, but two passes
at the same time (two iterators over one sampler, as two loaders sharing it make) share one position and one
set of draws, so each yields only part of its `num_samples` indices."""
from course.grading.class_run.submissions import edited

EXPECT = {"balanced": "fail"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("    weights = class_balanced_weights(targets)\n"
     "    return WeightedRandomSampler(weights, num_samples=num_samples, replacement=True, generator=generator)\n",
     "    weights = class_balanced_weights(targets)\n"
     "\n"
     "    class _Balanced(Sampler):\n"
     "        def __len__(self):\n"
     "            return num_samples\n"
     "\n"
     "        def __iter__(self):\n"
     "            self._draws = torch.multinomial(weights, num_samples, replacement=True,\n"
     "                                            generator=generator).tolist()\n"
     "            self._pos = 0\n"
     "            return self\n"
     "\n"
     "        def __next__(self):\n"
     "            if self._pos >= len(self._draws):\n"
     "                raise StopIteration\n"
     "            self._pos += 1\n"
     "            return self._draws[self._pos - 1]\n"
     "\n"
     "    return _Balanced()\n"))}
