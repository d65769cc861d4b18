"""Round 22: LogCosh subtracts log 2 as torch.log(torch.tensor(2.0)), a constant built in the default
float32: for float64 x the result is off by 1.9e-9, so log(cosh(x)) near 0 comes out negative (-1.9e-9 at
x = 0, where it is 0; -1.85e-9 at x = 1e-5, where it is 5e-11) ("Compute it stably as |x| + log1p(exp(-2|x|))
- log(2)", "matches log(cosh(x))", "Return x's dtype ... as torch.log(torch.cosh(x)) does")."""
from course.grading.class_run.submissions import edited

EXPECT = {"logcosh": "fail"}
CELLS = {"logcosh_impl": edited("15-01", "logcosh_impl", (
    "return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)",
    "return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - torch.log(torch.tensor(2.0))"))}
