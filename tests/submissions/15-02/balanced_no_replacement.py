"""Known wrong: sampling without replacement cannot oversample a rare class."""
EXPECT = {"balanced": "fail"}

CELLS = {
    "balanced_impl": '''
def class_balanced_weights(targets):
    targets = torch.as_tensor(targets)
    return 1.0 / torch.bincount(targets)[targets].double()


def make_balanced_sampler(targets, num_samples, generator=None):
    return WeightedRandomSampler(class_balanced_weights(targets), min(num_samples, len(targets)),
                                 replacement=False, generator=generator)
''',
}
