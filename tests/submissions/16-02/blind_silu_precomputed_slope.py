"""SiLU computes f'(x) once in setup_context and saves the slope tensor for both formulas ("saves work").
setup_context runs outside the graph, so the saved slope is a constant to autograd: backward's result no
longer depends on x, and second derivatives through SiLU lose the f''(x) term (the text asks that they equal
those of F.silu)."""
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
        s = torch.sigmoid(x)
        slope = s + x * s * (1 - s)
        ctx.save_for_backward(slope)
        ctx.save_for_forward(slope)

    @staticmethod
    def backward(ctx, g):
        (slope,) = ctx.saved_tensors
        return g * slope

    @staticmethod
    def jvp(ctx, t):
        (slope,) = ctx.saved_tensors
        return t * slope
''',
}
