"""Wrong (blind batch, issue #19, second round, checkpoint):
keeps the RNG state (and the block) on the Function class instead of on ctx.

Breaks "Backward runs block again from the RNG state forward started from": with two checkpointed
blocks in a row (the demo's four blocks), the first block's backward replays from the last forward's
state, so its dropout mask differs from the one its output used.
The hidden check test_two_blocks_backward checkpoints two dropout blocks in a row and compares every
.grad after backward() with a plain run from the same seed (the same check catches a backward that returns
the parameters' .grad after an inner autograd.backward, which reaches .grad twice).
"""
EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'fail'}

CELLS = {
    'checkpoint_impl': '''
class Checkpoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, block, x, *params):
        ctx.block = block
        ctx.params = params
        Checkpoint.rng = torch.get_rng_state()
        with torch.no_grad():
            out = block(x)
        ctx.save_for_backward(x)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        params = ctx.params
        xd = x.detach().requires_grad_(ctx.needs_input_grad[1])
        with torch.random.fork_rng(devices=[]):
            torch.set_rng_state(Checkpoint.rng)
            with torch.enable_grad():
                out = ctx.block(xd)
        wanted = ([xd] if xd.requires_grad else []) + [p for p in params if p.requires_grad]
        got = iter(torch.autograd.grad(out, wanted, grad_out, allow_unused=True))
        gx = next(got) if xd.requires_grad else None
        return (None, gx, *[next(got) if p.requires_grad else None for p in params])


def checkpoint(block, x):
    """block(x), recomputed in backward instead of saved."""
    return Checkpoint.apply(block, x, *block.parameters())
''',
}
