"""Wrong: "if `generator` is `None`, make one seeded from the global RNG (as `RandomSampler` does)". This version
seeds its own generator with `torch.seed()`, which does not draw from the global RNG: it re-seeds the global RNG
from the operating system's entropy and returns that seed. Two samplers built after the same
`torch.manual_seed(0)` give different epochs, and everything that uses the global RNG after building the sampler
(a model's initialisation, dropout) is no longer repeatable either."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("            generator.manual_seed(int(torch.empty((), dtype=torch.int64).random_().item()))\n",
     "            generator.manual_seed(torch.seed())\n"))}
