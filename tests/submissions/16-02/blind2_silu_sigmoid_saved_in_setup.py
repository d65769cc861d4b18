"""Saves sigmoid(x) computed in setup_context (with expit) and writes f' from it: setup_context runs without
grad, so the saved s is a constant to autograd and second derivatives through SiLU (double backward, jvp of
grad) differ from F.silu's. Written as the SiLU of an unusual-correct answer in the second blind round; it was
rejected fairly (the text: second derivatives equal those of F.silu)."""
EXPECT = {'silu': 'fail'}
CELLS = {
    'silu_impl': '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return torch.mul(x, torch.special.expit(x))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x = inputs[0]
        s = torch.special.expit(x)
        ctx.save_for_backward(x, s)
        ctx.save_for_forward(x, s)

    @staticmethod
    def backward(ctx, g):
        x, s = ctx.saved_tensors
        return g * torch.addcmul(s, x * s, 1 - s)

    @staticmethod
    def jvp(ctx, t):
        x, s = ctx.saved_tensors
        return torch.addcmul(s, x * s, 1 - s).mul(t)
''',
}
