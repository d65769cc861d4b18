"""Wrong (held-out round 30): backward rebuilds tanh(x) from the saved *output* y = log(cosh(x)) as
sign(x) * sqrt(1 - exp(-2 y)) (cosh^-2 = exp(-2 y), tanh^2 = 1 - sech^2), with torch operations, so gradgradcheck
on ordinary inputs passes. The text says the derivative is tanh(x) and asks for "backward with torch operations
on the saved input". The stable forward has an absolute error of about 1e-16, so for small |x| the rebuilt
gradient is garbage: LogCosh at x = 1e-9 (float64) gives gradient 0. instead of tanh(1e-9) = 1e-9, at x = -1e-8
gives -1.49e-8 instead of -1e-8 (and at x = 1e-3 in float32 it is off by percent)."""
from course.grading.class_run.submissions import edited

EXPECT = {"logcosh": "fail"}
CELLS = {"logcosh_impl": edited("15-01", "logcosh_impl", (
    "        ctx.save_for_backward(x)\n"
    "        return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)\n",
    "        y = x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)\n"
    "        ctx.save_for_backward(x, y)\n"
    "        return y\n"), (
    "        (x,) = ctx.saved_tensors\n"
    "        return grad_out * torch.tanh(x)\n",
    "        x, y = ctx.saved_tensors\n"
    "        return grad_out * torch.sign(x) * torch.sqrt(-torch.expm1(-2 * y))\n"))}
