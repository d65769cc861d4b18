"""Blind batch, issue #19, third round (checkpoint): breaks 'returns the gradients ... of every parameter': frozen
parameters are left out of the autograd.grad call, but the gradients that come back are returned in order and
padded with None at the END, so with a frozen parameter before a trainable one every later gradient lands on the
wrong parameter."""
EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'fail'}
BASE = "reference"
CELLS = {
    'checkpoint_impl': r'''
class Checkpoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, block, x, *params):
        ctx.block = block
        ctx.params = params
        ctx.rng = torch.get_rng_state()
        with torch.no_grad():
            out = block(x)
        ctx.save_for_backward(x)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        params = ctx.params
        with torch.random.fork_rng(devices=[]):
            torch.set_rng_state(ctx.rng)
            with torch.enable_grad():
                xd = x.detach().requires_grad_(ctx.needs_input_grad[1])
                out = ctx.block(xd)
        trainable = [p for p in params if p.requires_grad]
        inputs = ([xd] if ctx.needs_input_grad[1] else []) + trainable
        grads = list(torch.autograd.grad(out, inputs, grad_out, allow_unused=True)) if inputs else []
        gx = grads.pop(0) if ctx.needs_input_grad[1] else None
        grads += [None] * (len(params) - len(trainable))
        return (None, gx, *grads)


def checkpoint(block, x):
    """block(x), recomputed in backward instead of saved."""
    return Checkpoint.apply(block, x, *block.parameters())
''',
}
