"""Known wrong: per-class weights handed to the sampler (indices 0..K-1) and sampling without replacement."""
EXPECT = {"balanced": "fail"}

CELLS = {
    "balanced_impl": '''
def class_balanced_weights(targets):
    targets = torch.as_tensor(targets)
    return 1.0 / torch.bincount(targets)[targets].double()


def make_balanced_sampler(targets, num_samples, generator=None):
    counts = torch.bincount(torch.as_tensor(targets)).double()
    per_class = torch.where(counts > 0, 1.0 / counts, torch.zeros_like(counts))
    return WeightedRandomSampler(per_class, num_samples, replacement=True, generator=generator)
''',
}
