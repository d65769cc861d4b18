"""Held-out round 20, second pass (after the count, not counted): forward keeps its output on ctx
(`ctx.out = out`, "to check the replay against it in backward"). The values and gradients are right and only x
goes through save_for_backward, but the node now holds the block's output: a reference cycle (the output's
grad_fn holds the output), so the output and its node outlive every handle the caller drops, until the garbage
collector runs. The text: "Forward runs `block` without recording a graph and saves only `x` for backward"."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "00-02", "checkpoint_impl",
    ("        with torch.no_grad():\n"
     "            return block(x)\n",
     "        with torch.no_grad():\n"
     "            ctx.out = block(x)\n"
     "        return ctx.out\n"))}
