"""Wrong (round 21's contract walk, not counted): "drawn reproducibly from `generator`; every pass over it
(every epoch) draws anew, as `WeightedRandomSampler` does" (which, without a generator, draws from the global RNG).
This version replaces a missing generator by `torch.Generator()`, whose seed is always the same default: the draws
are balanced, but every program draws the same indices whatever `torch.manual_seed` said."""
from course.grading.class_run.submissions import edited

EXPECT = {"balanced": "fail"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("    weights = class_balanced_weights(targets)\n",
     "    weights = class_balanced_weights(targets)\n"
     "    generator = generator if generator is not None else torch.Generator()\n"))}
