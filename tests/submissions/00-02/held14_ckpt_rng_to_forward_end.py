"""Held-out round 14: forward records the RNG state before and after the block; backward replays from the
first and then sets the global RNG to the second instead of putting back the state it found. Anything drawn
between forward and backward (another layer's dropout, a second checkpointed block) is rewound. The text:
"The global RNG state after forward is the one a plain `block(x)` leaves, and backward does not change it"."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "00-02", "checkpoint_impl",
    ("        with torch.no_grad():\n            return block(x)",
     "        with torch.no_grad():\n            out = block(x)\n        ctx.rng_after = torch.get_rng_state()\n"
     "        return out"),
    ("        with torch.random.fork_rng(devices=[]), torch.enable_grad():",
     "        with torch.enable_grad():"),
    ("        gx = next(grads) if xd.requires_grad else None\n",
     "        torch.set_rng_state(ctx.rng_after)\n        gx = next(grads) if xd.requires_grad else None\n"))}
