"""The old style: forward(ctx, x) saves x itself, no setup_context; backward() works, torch.func transforms refuse
it."""
EXPECT = {"silu": "fail"}
CELLS = {"silu_impl": """
class SiLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return x * torch.sigmoid(x)

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
"""}
