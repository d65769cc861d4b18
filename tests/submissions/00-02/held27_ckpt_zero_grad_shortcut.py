"""Held-out round 27: `Checkpoint.backward` skips the recomputation when no gradient flows back
(`if not grad_out.any(): return None for everything`). But a zero upstream gradient (a loss that multiplies the
output by 0, a relu after the block that is negative everywhere, a masked loss) still gives every used parameter
a gradient of zeros in torch; here they get None: `.grad` stays None and `torch.autograd.grad(out, params)`
raises "One of the differentiated Tensors appears to not have been used in the graph". The text: "returns the
gradients of `x` and of every parameter: they match those of a plain `block(x)`", and only "A parameter the block
never uses gets `None` (or zeros)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "00-02", "checkpoint_impl",
    ("""        (x,) = ctx.saved_tensors
        params = list(ctx.block.parameters())
""", """        (x,) = ctx.saved_tensors
        params = list(ctx.block.parameters())
        if not grad_out.any():  # nothing flows back: skip the second forward
            return (None, None, *[None for _ in params])
"""))}
