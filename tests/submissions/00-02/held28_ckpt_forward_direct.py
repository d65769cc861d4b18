"""Wrong (held-out round 28): backward recomputes the block with `ctx.block.forward(xd)` instead of calling the
module, so the block's forward hooks and pre-hooks do not run in the recomputation (forward still calls block(x)).
Violates "Backward runs block again ... and returns the gradients of x and of every parameter: they match those of
a plain block(x)". Goes wrong on a block with a forward hook that changes its output (output * 2: every gradient
comes back halved) or with nn.utils.weight_norm (the pre-hook that rebuilds weight from weight_g and weight_v is
skipped, so weight_g and weight_v get no gradient)."""
from course.grading.class_run.submissions import edited

EXPECT = {"checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "00-02", "checkpoint_impl",
    ("            out = ctx.block(xd)\n", "            out = ctx.block.forward(xd)\n"),
)}
