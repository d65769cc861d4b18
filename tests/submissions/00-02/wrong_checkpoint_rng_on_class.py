"""Wrong (blind batch, issue #19, second round, checkpoint):
keeps the RNG state on the Function class instead of on ctx.

Breaks "Backward runs block again from the RNG state forward started from": with two checkpointed
blocks in a row (the demo's four blocks), the first block's backward replays from the last forward's
state, so its dropout mask differs from the one its output used.
The hidden check test_two_blocks_backward checkpoints two dropout blocks in a row and compares every
.grad after backward() with a plain run from the same seed (the same check catches a backward that returns
the parameters' .grad after an inner autograd.backward, which reaches .grad twice).
"""
from course.grading.class_run.submissions import edited

EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'fail'}
CELLS = {"checkpoint_impl": edited("00-02", "checkpoint_impl",
    ("ctx.rng = torch.get_rng_state()", "Checkpoint.rng = torch.get_rng_state()"),
    ("torch.set_rng_state(ctx.rng)", "torch.set_rng_state(Checkpoint.rng)"))}
