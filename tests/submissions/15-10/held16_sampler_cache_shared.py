"""Known-wrong ResumableRandomSampler (round 16): caches each epoch's order in a module-level dict keyed
by (seed, epoch), "so that set_epoch / resume do not redraw it". Two samplers with the same seed and epoch
but different sizes then share one list: the second gets the first one's order, which is not a
permutation of range(num_samples) (the text: "Shuffles range(num_samples)"; the permutation is a function
of (seed, epoch) for one sampler, not across samplers of other sizes)."""
from course.grading.class_run.submissions import edited

CELLS = {"sampler_impl": edited("15-10", "sampler_impl", (
    '''        g = torch.Generator().manual_seed(self.seed * 1_000_003 + int(epoch))
        return torch.randperm(self.num_samples, generator=g).tolist()''',
    '''        key = (self.seed, int(epoch))
        if key not in _ORDER_CACHE:  # drawn once per (seed, epoch), reused by every later pass
            g = torch.Generator().manual_seed(self.seed * 1_000_003 + int(epoch))
            _ORDER_CACHE[key] = torch.randperm(self.num_samples, generator=g).tolist()
        return list(_ORDER_CACHE[key])'''), (
    "def make_loader(", "_ORDER_CACHE = {}\n\n\ndef make_loader("))}
EXPECT = {"sampler": "fail"}
