"""Round 18: LogCosh.backward writes tanh by hand in a stable form, sign(x) * (1 - e^(-2|x|)) / (1 + e^(-2|x|)).
Its value is tanh(x) everywhere, but differentiating it again goes through sign(x) and |x|, whose derivatives
at 0 are 0: the second derivative at x = 0 is 0 instead of 1 - tanh(0)**2 = 1 ("twice differentiable", "its
derivative is tanh(x)", "so that gradgradcheck passes")."""
from course.grading.class_run.submissions import edited

EXPECT = {"logcosh": "fail"}
CELLS = {"logcosh_impl": edited("15-01", "logcosh_impl", (
    """        (x,) = ctx.saved_tensors
        return grad_out * torch.tanh(x)""",
    """        (x,) = ctx.saved_tensors
        e = torch.exp(-2 * x.abs())
        return grad_out * torch.sign(x) * (1 - e) / (1 + e)"""))}
