"""SiLU clamps its input to [-80, 80] before computing, to keep exp from overflowing at +-1000 ("values stay
finite"): the value at x = 1000 is 80 instead of 1000 (F.silu(1000) = 1000), and the derivative there is 0."""
EXPECT = {"silu": "fail"}
CELLS = {
    "silu_impl": '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        x = x.clamp(-80, 80)
        return x * torch.sigmoid(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        x = x.clamp(-80, 80)
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
