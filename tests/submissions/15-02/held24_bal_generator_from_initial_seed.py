"""Wrong: "a sampler yielding `num_samples` indices ... drawn reproducibly from `generator`" (as
`WeightedRandomSampler(..., generator=g)` does: the draws come from `g` itself, in the state it is in). This
version, to leave the caller's generator untouched, draws from a private `torch.Generator()` seeded with
`generator.initial_seed()`. The draws no longer depend on the generator's state: a generator that was already used
(or restored with `set_state`, as a resumed run does) gives the draws of its fresh seed, and two samplers built
from one generator `g` repeat each other instead of continuing `g`'s stream."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "fail", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("    weights = class_balanced_weights(targets)\n",
     "    weights = class_balanced_weights(targets)\n"
     "    if generator is not None:\n"
     "        generator = torch.Generator().manual_seed(generator.initial_seed())\n"))}
