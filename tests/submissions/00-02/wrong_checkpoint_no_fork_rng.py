"""Wrong (blind batch, issue #19): backward puts the RNG back to forward's starting state and replays the block,
but not inside torch.random.fork_rng(), so nothing restores the state backward found.

Breaks "... and backward does not change it": the gradients are right (the same dropout mask), yet after backward
the global RNG sits where the replay ended, the state right after forward; every draw made between forward and
backward (a later layer's dropout) is undone, and the next draws repeat those numbers. The hidden check draws
torch.rand(5) between forward and backward to see it.
"""
EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'fail'}

CELLS = {"checkpoint_impl": '''
class Checkpoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, block, x, *params):
        ctx.block = block
        ctx.cpu_state = torch.get_rng_state()
        ctx.cuda_dev = x.device if x.is_cuda else None
        if ctx.cuda_dev is not None:
            ctx.cuda_state = torch.cuda.get_rng_state(ctx.cuda_dev)
        with torch.no_grad():
            out = block(x)
        ctx.save_for_backward(x)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        params = list(ctx.block.parameters())
        devices = [ctx.cuda_dev] if ctx.cuda_dev is not None else []
        torch.set_rng_state(ctx.cpu_state)
        if ctx.cuda_dev is not None:
            torch.cuda.set_rng_state(ctx.cuda_state, ctx.cuda_dev)
        with torch.enable_grad():
            xd = x.detach().requires_grad_(ctx.needs_input_grad[1])
            out = ctx.block(xd)
        wanted = ([xd] if xd.requires_grad else []) + [p for p in params if p.requires_grad]
        got = iter(torch.autograd.grad(out, wanted, grad_out, allow_unused=True))
        gx = next(got) if xd.requires_grad else None
        gparams = [next(got) if p.requires_grad else None for p in params]
        return (None, gx, *gparams)


def checkpoint(block, x):
    """block(x), recomputed in backward instead of saved."""
    return Checkpoint.apply(block, x, *block.parameters())
'''}
