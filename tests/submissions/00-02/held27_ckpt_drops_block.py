"""Held-out round 27: `Checkpoint.backward` takes the block and the RNG state out of `ctx` (`del ctx.block,
ctx.rng`, "free what backward no longer needs"). One backward is right, but a second backward through the same
graph (`backward(retain_graph=True)` twice, `torch.autograd.grad(..., retain_graph=True)` twice, which
`gradcheck` does) raises AttributeError where a plain `block(x)` gives the same gradients again. The text:
"Backward runs `block` again from the RNG state forward started from ... and returns the gradients of `x` and
of every parameter: they match those of a plain `block(x)`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "fail"}
CELLS = {"checkpoint_impl": edited(
    "00-02", "checkpoint_impl",
    ("""        (x,) = ctx.saved_tensors
        params = list(ctx.block.parameters())
        with torch.random.fork_rng(devices=[]), torch.enable_grad():
            torch.set_rng_state(ctx.rng)
            xd = x.detach().requires_grad_(ctx.needs_input_grad[1])
            out = ctx.block(xd)
""", """        (x,) = ctx.saved_tensors
        block, rng = ctx.block, ctx.rng
        del ctx.block, ctx.rng  # free what backward no longer needs
        params = list(block.parameters())
        with torch.random.fork_rng(devices=[]), torch.enable_grad():
            torch.set_rng_state(rng)
            xd = x.detach().requires_grad_(ctx.needs_input_grad[1])
            out = block(xd)
"""))}
