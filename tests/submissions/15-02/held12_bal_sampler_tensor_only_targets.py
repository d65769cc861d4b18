"""Class-first sampling (a class uniformly, then a member uniformly), written with tensor methods on
targets: it fails when targets is a plain list of ints, which the text allows for both functions."""
from course.grading.class_run.submissions import edited

EXPECT = {"balanced": "fail"}
CELLS = {"balanced_impl": edited("15-02", "balanced_impl", (
    "    weights = class_balanced_weights(targets)\n"
    "    return WeightedRandomSampler(weights, num_samples=num_samples, replacement=True, generator=generator)\n",
    '''    classes = targets.unique()
    members = [torch.nonzero(targets == c).flatten() for c in classes]

    class _ClassFirst(Sampler):
        def __iter__(self):
            cls = torch.randint(len(members), (num_samples,), generator=generator).tolist()
            for c in cls:
                m = members[c]
                yield int(m[torch.randint(len(m), (1,), generator=generator)])

        def __len__(self):
            return num_samples

    return _ClassFirst()
'''))}
