"""backward computes f'(x) under torch.no_grad() 'for speed': first derivatives right, but backward is not
differentiable, so second derivatives through SiLU are wrong."""
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
        with torch.no_grad():
            s = torch.sigmoid(x)
            d = s + x * s * (1 - s)
        return g * d

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return t * (s + x * s * (1 - s))
''',
}
