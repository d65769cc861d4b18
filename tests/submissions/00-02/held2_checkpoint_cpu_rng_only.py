"""Wrong (held-out round 2): records and restores only the CPU generator (torch.get_rng_state), so a block
on a GPU replays dropout from the CUDA generator's later state: another mask ("Backward runs block again
from the RNG state forward started from, so dropout draws the same mask"). Wrong only on a GPU."""
EXPECT = {'checkpoint': 'fail'}
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
