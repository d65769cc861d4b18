"""Round 16: backward and jvp compute s as 1 / (1 + exp(-x)) instead of torch.sigmoid(x). Values and first
derivatives stay finite and right at +-1000, but the derivative of that s at x = -1000 is inf / inf, so the second
derivatives through SiLU (double backward, jvp of grad) are NaN there where F.silu's are 0 ("second derivatives
through SiLU ... equal those of F.silu"; "Values and derivatives stay finite for inputs as large as +-1000")."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail"}
CELLS = {"silu_impl": edited("16-02", "silu_impl",
    ("""        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return g * (s + x * s * (1 - s))""",
     """        (x,) = ctx.saved_tensors
        s = 1 / (1 + torch.exp(-x))
        return g * (s + x * s * (1 - s))"""),
    ("""        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return t * (s + x * s * (1 - s))""",
     """        (x,) = ctx.saved_tensors
        s = 1 / (1 + torch.exp(-x))
        return t * (s + x * s * (1 - s))"""))}
