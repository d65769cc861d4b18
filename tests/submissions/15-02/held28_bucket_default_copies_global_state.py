"""Wrong: "if `generator` is `None`, make one seeded from the global RNG (as `RandomSampler` does)". This version
does not seed a generator from a draw of the global RNG: it copies the global RNG's state into a new generator
(`set_state(torch.get_rng_state())`). The global RNG does not advance, so two `BucketBatchSampler(lengths, 3)`
built one after the other (with no other global draw between them) yield the same epochs, and the data order
equals the global RNG's next numbers (dropout masks, initialisation) instead of being decoupled from them.
Goes wrong on: `torch.manual_seed(0); a = BucketBatchSampler(list(range(40)), 4); b = BucketBatchSampler(
list(range(40)), 4)`: `list(a) == list(b)`, while a RandomSampler-style seed draw makes them differ."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("            generator.manual_seed(int(torch.empty((), dtype=torch.int64).random_().item()))\n",
     "            generator.set_state(torch.get_rng_state())\n"))}
