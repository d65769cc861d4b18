"""Wrong (held-out round 24): permutation(epoch) seeds its generator from self.epoch instead of its argument, so
it returns the CURRENT epoch's order whatever epoch is asked for (iteration is right, since __iter__ asks for
self.epoch). Contradicts "permutation(self, epoch): The order of epoch ``epoch`` as a list of ints (a pure function
of seed and epoch)" and "the permutation of epoch e is a pure function of (seed, epoch)". Goes wrong on: a fresh
sampler (epoch 0) asked for permutation(1), which must equal what the sampler yields after set_epoch(1)."""
from course.grading.class_run.submissions import edited

EXPECT = {"sampler": "fail"}
CELLS = {"sampler_impl": edited(
    "15-10", "sampler_impl",
    ("manual_seed(self.seed * 1_000_003 + int(epoch))", "manual_seed(self.seed * 1_000_003 + int(self.epoch))"))}
