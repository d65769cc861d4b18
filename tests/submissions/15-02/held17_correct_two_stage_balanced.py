"""Correct, written another way: `make_balanced_sampler` without `WeightedRandomSampler`. It draws in two stages,
a class uniformly among the classes present (`torch.randint` from `generator`), then a member of that class
uniformly (a `torch.rand` from the same generator, scaled by the class size): every present class is drawn
equally often in expectation and every member of a class equally often, the draws are made in `__iter__`
(every pass draws anew), reproducibly from `generator`, and `len()` is `num_samples`."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("    weights = class_balanced_weights(targets)\n"
     "    return WeightedRandomSampler(weights, num_samples=num_samples, replacement=True, generator=generator)\n",
     "    t = torch.as_tensor(targets, dtype=torch.int64)\n"
     "    _, inverse, sizes = torch.unique(t, return_inverse=True, return_counts=True)\n"
     "    by_class = torch.argsort(inverse, stable=True)  # indices grouped class by class\n"
     "    starts = torch.cumsum(sizes, 0) - sizes\n"
     "    n = int(num_samples)\n"
     "\n"
     "    class TwoStageSampler(Sampler):\n"
     "        def __len__(self):\n"
     "            return n\n"
     "\n"
     "        def __iter__(self):\n"
     "            cls = torch.randint(len(sizes), (n,), generator=generator)\n"
     "            u = torch.rand(n, generator=generator, dtype=torch.float64)\n"
     "            pos = (u * sizes[cls]).long().clamp(max=sizes[cls] - 1)\n"
     "            yield from by_class[starts[cls] + pos].tolist()\n"
     "\n"
     "    return TwoStageSampler()\n"))}
