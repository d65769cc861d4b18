"""Wrong (held-out round 30): half-precision inputs (float16, bfloat16) are computed in float32 "for accuracy"
and the float32 result is returned. The text says "Return x's dtype (float32 in, float32 out), as
torch.log(torch.cosh(x)) does". Goes wrong on LogCosh.apply(x) with x = torch.tensor([0.5, -3.0],
dtype=torch.float16): torch.log(torch.cosh(x)) is float16, this returns float32. float32 and float64 inputs are
right."""
from course.grading.class_run.submissions import edited

EXPECT = {"logcosh": "fail"}
CELLS = {"logcosh_impl": edited("15-01", "logcosh_impl", (
    "        return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)\n",
    "        if x.dtype in (torch.float16, torch.bfloat16):\n"
    "            x = x.float()  # half precision is too coarse for log1p(exp(.))\n"
    "        return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)\n"))}
