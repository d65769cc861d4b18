"""Computes in float32 'for speed' and casts nothing back: float64 inputs give float32 results (the text: x's
dtype)."""
EXPECT = {'silu': 'fail'}
CELLS = {
    'silu_impl': '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        xf = x.float()
        return xf * torch.sigmoid(xf)

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
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return t * (s + x * s * (1 - s))
''',
}
