"""Round 18: LogCosh subtracts torch.log(torch.tensor(2.0)), a float32 0-dim tensor. A float64 x keeps its
dtype (0-dim tensors do not promote), but log(2) is rounded to float32, so the float64 result is off by about
2e-9 everywhere, far more than float64 rounding ("log(cosh(x))", "Return x's dtype ... as
torch.log(torch.cosh(x)) does")."""
from course.grading.class_run.submissions import edited

EXPECT = {"logcosh": "fail"}
CELLS = {"logcosh_impl": edited("15-01", "logcosh_impl", (
    """        return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)""",
    """        return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - torch.log(torch.tensor(2.0))"""))}
