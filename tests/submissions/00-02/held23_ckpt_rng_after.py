"""Held-out round 23: forward records the RNG state before and after the block; backward sets the state before,
replays the block, then sets the state forward left (no fork_rng). When nothing random runs between forward and
backward this is right; when something does (a second checkpointed block, a dropout after the block, any
torch.rand), backward rewinds the global RNG to an older state, so the next draws repeat. The text: "The global
RNG state after forward is the one a plain `block(x)` leaves, and backward does not change it"."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "00-02", "checkpoint_impl",
    ("        with torch.no_grad():\n"
     "            return block(x)\n",
     "        with torch.no_grad():\n"
     "            out = block(x)\n"
     "        ctx.rng_after = torch.get_rng_state()\n"
     "        return out\n"),
    ("        with torch.random.fork_rng(devices=[]), torch.enable_grad():\n",
     "        with torch.enable_grad():\n"),
    ("        gx = next(grads) if xd.requires_grad else None\n",
     "        torch.set_rng_state(ctx.rng_after)\n"
     "        gx = next(grads) if xd.requires_grad else None\n"))}
