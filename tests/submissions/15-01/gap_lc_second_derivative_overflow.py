"""Known-wrong LogCosh (gap round): backward writes tanh(x) as 1 - 2 / (exp(2x) + 1). Its first derivative
is right everywhere (exp overflows to inf and 2 / inf = 0), but differentiating it again gives
inf / inf = nan for |x| beyond about 355 in float64, where gradgradcheck expects 1 - tanh(x)**2 = 0."""
from course.grading.class_run.submissions import edited

CELLS = {"logcosh_impl": edited("15-01", "logcosh_impl",
    ("return grad_out * torch.tanh(x)", "return grad_out * (1 - 2 / (torch.exp(2 * x) + 1))"))}
EXPECT = {"logcosh": "fail"}
