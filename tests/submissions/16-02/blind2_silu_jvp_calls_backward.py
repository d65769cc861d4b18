"""jvp reuses backward (SiLU.backward(ctx, t)): same numbers for an elementwise op, but the text says forward
mode uses jvp, never backward."""
EXPECT = {'silu': 'fail'}
CELLS = {
    'silu_impl': '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x * torch.sigmoid(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return g * (s + x * s * (1 - s))

    @staticmethod
    def jvp(ctx, t):
        return SiLU.backward(ctx, t)
''',
}
