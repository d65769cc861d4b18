"""Wrong: "`make_balanced_sampler(targets, num_samples, generator=None)` ...: a sampler yielding `num_samples`
indices in `range(N)` such that every class *present* in `targets` is drawn equally often in expectation".
This version samples *stratified* (lower variance, it hopes): each pass gives every class exactly
num_samples // K draws (members drawn with replacement from the generator), hands the remainder
num_samples % K to the classes with the smallest labels, and shuffles the result with the generator. When K does
not divide num_samples the low classes are drawn more often in expectation: with two classes and num_samples = 1
every pass yields a member of class 0, never of class 1. Over 24k draws the bias is at most K - 1 draws, far
inside any 5-standard-deviation band."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "fail", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("def make_balanced_sampler(targets, num_samples, generator=None):\n",
     "class _StratifiedSampler(Sampler):\n"
     "    def __init__(self, targets, num_samples, generator):\n"
     "        t = torch.as_tensor(targets, dtype=torch.int64)\n"
     "        self.members = [torch.nonzero(t == c).flatten() for c in torch.unique(t)]\n"
     "        self.num_samples = int(num_samples)\n"
     "        self.generator = generator\n"
     "\n"
     "    def __iter__(self):\n"
     "        per, extra = divmod(self.num_samples, len(self.members))\n"
     "        picks = []\n"
     "        for k, m in enumerate(self.members):\n"
     "            n = per + (1 if k < extra else 0)\n"
     "            picks.append(m[torch.randint(len(m), (n,), generator=self.generator)])\n"
     "        drawn = torch.cat(picks)\n"
     "        drawn = drawn[torch.randperm(len(drawn), generator=self.generator)]\n"
     "        yield from drawn.tolist()\n"
     "\n"
     "    def __len__(self):\n"
     "        return self.num_samples\n"
     "\n"
     "\n"
     "def make_balanced_sampler(targets, num_samples, generator=None):\n"),
    ("    weights = class_balanced_weights(targets)\n"
     "    return WeightedRandomSampler(weights, num_samples=num_samples, replacement=True, generator=generator)\n",
     "    return _StratifiedSampler(targets, num_samples, generator)\n"))}
