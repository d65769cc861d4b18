"""Round 22: LogCosh's backward differentiates the stable forward literally, d|x|/dx = sign(x):
grad_out * sign(x) * tanh(|x|). Its value is tanh(x) everywhere, but its own derivative at x = 0 is
sign(0)**2 * (1 - tanh(0)**2) = 0, where log(cosh(x)) ~ x**2 / 2 has second derivative 1 ("behaves like
x**2 / 2 near zero", "twice differentiable", "so that gradgradcheck passes": gradgradcheck at x = 0 fails)."""
from course.grading.class_run.submissions import edited

EXPECT = {"logcosh": "fail"}
CELLS = {"logcosh_impl": edited("15-01", "logcosh_impl", (
    "return grad_out * torch.tanh(x)",
    "return grad_out * torch.sign(x) * torch.tanh(x.abs())"))}
