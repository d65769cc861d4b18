"""Held-out round 3: SiLU's jvp reads sigmoid(x) computed once in setup_context (saved for forward), while
backward recomputes it from x. First derivatives are right and backward is differentiable, but the jvp
formula is a constant to any outer transform: jacfwd(jacfwd(SiLU.apply)) and jacrev(jacfwd(SiLU.apply))
differ from F.silu's second derivatives (the task says second derivatives through SiLU equal F.silu's)."""
EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x * torch.sigmoid(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x, torch.sigmoid(x))

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return g * (s + x * s * (1 - s))

    @staticmethod
    def jvp(ctx, t):
        x, s = ctx.saved_tensors
        return t * (s + x * s * (1 - s))
'''}
