"""Wrong: "every `__iter__` (epoch) yields those batches ... in a random order drawn **only** from
`generator`" (and section 0: "The generator's state advances while it is used"). This version keeps a private
copy made from `generator.initial_seed()`: the passed generator never advances, and the order ignores its
current state, so a generator that was already used (or restored with `set_state` to resume a run) gives the
batches of a freshly seeded one."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("        self.generator = generator\n",
     "        self.generator = torch.Generator().manual_seed(generator.initial_seed())  # own copy, same seed\n"))}
