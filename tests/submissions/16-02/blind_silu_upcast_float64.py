"""SiLU computes in float64 for accuracy at +-1000 (`x = x.double()`) and never casts back: a float32 input
gives a float64 output and float64 gradients (the text: x's dtype)."""
EXPECT = {"silu": "fail"}
CELLS = {
    "silu_impl": '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        x = x.double()
        return x * torch.sigmoid(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def _slope(x):
        x = x.double()
        s = torch.sigmoid(x)
        return s + x * s * (1 - s)

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
