"""SiLU's backward returns J^T g literally, as `g @ torch.diag(f'(x))` (the notebook says backward returns
J^T g). Right for a 1-D x only: a 0-dim x makes diag raise, and for a 2-D x torch.diag extracts a diagonal
instead of building a matrix, so the gradient has the wrong shape and values."""
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
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return g @ torch.diag(s + x * s * (1 - s))

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return t * (s + x * s * (1 - s))
''',
}
