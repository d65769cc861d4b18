"""SiLU writes sigma'(x) as exp(-x) / (1 + exp(-x))**2, the textbook form. For x <= -710 (float64) or
x <= -89 (float32) exp(-x) overflows to inf and inf / inf is nan: the derivatives are not finite at -1000,
which the text requires."""
EXPECT = {"silu": "fail"}
CELLS = {
    "silu_impl": '''
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
    def _slope(x):
        e = torch.exp(-x)
        return torch.sigmoid(x) + x * e / (1 + e) ** 2

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * SiLU._slope(x)

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return t * SiLU._slope(x)
''',
}
