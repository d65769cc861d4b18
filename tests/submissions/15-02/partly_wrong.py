"""Three realistic mistakes in different tasks; the other tasks are correct."""
EXPECT = {"bucket_sampler": "fail", "balanced": "fail", "collate": "pass", "packed_rnn": "fail", "stream": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another

CELLS = {
    # Batches are never shuffled: every epoch (and every seed) gives the sorted order.
    "bucket_sampler_impl": '''
class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size, drop_last=False, generator=None):
        order = torch.argsort(torch.as_tensor(lengths), stable=True).tolist()
        self.batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
        if drop_last and len(self.batches[-1]) < batch_size:
            self.batches.pop()
        self.generator = generator

    def __iter__(self):
        for b in self.batches:
            yield b

    def __len__(self):
        return len(self.batches)
''',
    # Weights proportional to the class size instead of its inverse: makes the imbalance worse.
    "balanced_impl": '''
def class_balanced_weights(targets):
    targets = torch.as_tensor(targets)
    counts = torch.bincount(targets)
    return counts[targets].double() / len(targets)


def make_balanced_sampler(targets, num_samples, generator=None):
    return WeightedRandomSampler(class_balanced_weights(targets), num_samples, replacement=True,
                                 generator=generator)
''',
    # No packing: the RNN runs over the padding, h_n belongs to the padded length.
    "packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    out, h = rnn(padded)
    if isinstance(h, tuple):
        h = h[0]
    mask = torch.arange(padded.shape[1])[None, :] < torch.as_tensor(lengths)[:, None]
    d = 2 if rnn.bidirectional else 1
    return out * mask[..., None], torch.cat([h[-d + k] for k in range(d)], dim=-1)
''',
}
