"""LogCosh computes in float64 "for accuracy" and forgets to cast back: a float32 x gives a float64
output (torch.log(torch.cosh(x)) keeps float32). Ambiguity: the LogCosh text names no dtype; the
notebook's header promises comparisons with PyTorch's own operators."""
from course.grading.class_run.submissions import edited

EXPECT = {"logcosh": "fail"}
CELLS = {"logcosh_impl": edited("15-01", "logcosh_impl",
                                ("return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)",
                                 "xd = x.double()\n"
                                 "        return xd.abs() + torch.log1p(torch.exp(-2 * xd.abs())) - math.log(2.0)"))}
