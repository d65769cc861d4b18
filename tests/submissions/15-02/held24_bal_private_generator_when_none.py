"""Wrong: "with `generator=None` the draws come from the global RNG, as that sampler's do" (and "every pass over
it (every epoch) draws anew, as `WeightedRandomSampler` does"). This version copies the bucket sampler's rule:
for `generator=None` it makes a private generator seeded once, at construction, from the global RNG. The draws of
each later pass then no longer come from the global RNG: `torch.manual_seed(s)` before a pass does not decide that
pass (two passes each preceded by `torch.manual_seed(0)` differ, where `WeightedRandomSampler` repeats them), and
the passes do not advance the global RNG."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "fail", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("    weights = class_balanced_weights(targets)\n",
     "    weights = class_balanced_weights(targets)\n"
     "    if generator is None:\n"
     "        generator = torch.Generator()\n"
     "        generator.manual_seed(int(torch.empty((), dtype=torch.int64).random_().item()))\n"))}
