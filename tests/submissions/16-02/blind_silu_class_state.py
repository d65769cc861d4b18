"""SiLU keeps its input on the class (`SiLU._x = x` in forward) instead of saving it on ctx, since forward
gets no ctx; setup_context does nothing. Every backward and jvp uses the input of the most recent forward, so
two applications before one backward (silu(silu(x)), or silu(a) + silu(b)) get wrong gradients."""
EXPECT = {"silu": "fail"}
CELLS = {
    "silu_impl": '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        SiLU._x = x
        return x * torch.sigmoid(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def _slope():
        x = SiLU._x
        s = torch.sigmoid(x)
        return s + x * s * (1 - s)

    @staticmethod
    def backward(ctx, g):
        return g * SiLU._slope()

    @staticmethod
    def jvp(ctx, t):
        return t * SiLU._slope()
''',
}
