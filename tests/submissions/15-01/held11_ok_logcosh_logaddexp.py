"""Correct, unusual: LogCosh's forward is torch.logaddexp(x, -x) - log(2), that is log(e^x + e^-x) - log 2
= log(cosh(x)), which logaddexp computes without overflow (as max + log1p(exp(-|difference|))); backward
is grad_out * tanh(x) on the saved input, as the text asks."""
from course.grading.class_run.submissions import edited

EXPECT = {"logcosh": "pass"}
CELLS = {"logcosh_impl": edited(
    "15-01", "logcosh_impl",
    ("        return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)\n",
     "        return torch.logaddexp(x, -x) - math.log(2.0)\n"))}
