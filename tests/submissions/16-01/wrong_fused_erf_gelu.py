"""Uses the exact (erf) GELU and its derivative instead of the tanh approximation."""
from course.grading.class_run.submissions import edited

EXPECT = {"fused": "fail"}
CELLS = {"fused_impl": edited("16-01", "fused_impl",
                              ('    return F.gelu(x, approximate="tanh") * keep / (1 - p)\n', "    return F.gelu(x) * keep / (1 - p)\n"),
                              ("    t = torch.tanh(_C * (x + 0.044715 * x ** 3))\n"
                               "    d = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _C * (1 + 3 * 0.044715 * x * x)\n",
                               "    d = 0.5 * (1 + torch.erf(x / math.sqrt(2))) + x * torch.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)\n"))}
