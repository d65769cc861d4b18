"""Writes sigmoid as exp(x) / (1 + exp(x)) everywhere (forward and both formulas): overflows to inf/inf = nan for
large positive x (the text wants finite values up to +-1000)."""
EXPECT = {'silu': 'fail'}
CELLS = {
    'silu_impl': '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        e = torch.exp(x)
        return x * e / (1 + e)

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        e = torch.exp(x)
        s = e / (1 + e)
        return g * (s + x * s * (1 - s))

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        e = torch.exp(x)
        s = e / (1 + e)
        return t * (s + x * s * (1 - s))
''',
}
