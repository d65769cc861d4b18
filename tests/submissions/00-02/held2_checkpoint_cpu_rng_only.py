"""Wrong (held-out round 2): records and restores only the CPU generator (torch.get_rng_state), so a block
on a GPU replays dropout from the CUDA generator's later state: another mask ("Backward runs block again
from the RNG state forward started from, so dropout draws the same mask"). Wrong only on a GPU.

It kept full marks in the round, and no CPU check can see it: without CUDA there is no second generator to
forget. The reference records only the CPU generator too (fork_rng(devices=[])), so on a GPU it has the same
fault; 00-02 has no GPU-marked check, and adding one changes the README's CPU-only score table. Open: a
reference that also replays x's device generator, and a GPU check with EXPECT_GPU here."""
# No EXPECT: every CPU check passes it (above); no EXPECT_GPU: 00-02 has no GPU-marked check yet.
CELLS = {"checkpoint_impl": '''
class Checkpoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, block, x, *params):
        ctx.block = block
        ctx.rng = torch.get_rng_state()
        out = block(x)
        ctx.save_for_backward(x)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        block = ctx.block
        with torch.random.fork_rng():
            torch.set_rng_state(ctx.rng)
            with torch.enable_grad():
                xd = x.detach().requires_grad_(ctx.needs_input_grad[1])
                out = block(xd)
        needs = ctx.needs_input_grad[2:]
        params = list(block.parameters())
        wanted = ([xd] if xd.requires_grad else []) + [p for p, n in zip(params, needs) if n]
        got = iter(torch.autograd.grad(out, wanted, grad_out, allow_unused=True) if wanted else ())
        gx = next(got) if xd.requires_grad else None
        return (None, gx, *[next(got) if n else None for n in needs])


def checkpoint(block, x):
    """block(x), recomputed in backward instead of saved."""
    return Checkpoint.apply(block, x, *block.parameters())
'''}
