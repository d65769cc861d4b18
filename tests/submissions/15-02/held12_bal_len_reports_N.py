"""A hand-written sampler that yields num_samples indices but whose len() says N (len(targets)), so a
DataLoader over it reports the wrong number of batches."""
from course.grading.class_run.submissions import edited

EXPECT = {"balanced": "fail"}
CELLS = {"balanced_impl": edited("15-02", "balanced_impl", (
    "    return WeightedRandomSampler(weights, num_samples=num_samples, replacement=True, generator=generator)\n",
    '''    class _Balanced(Sampler):
        def __iter__(self):
            yield from torch.multinomial(weights, num_samples, replacement=True, generator=generator).tolist()

        def __len__(self):
            return len(weights)

    return _Balanced()
'''))}
