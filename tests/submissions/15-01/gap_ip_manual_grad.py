"""Known-wrong run_fixed (gap round): writes the gradient itself (x.grad = exp(x)) instead of calling
backward on the sum; x.grad is set, the value is right and it returns x.grad itself."""
from course.grading.class_run.submissions import edited

CELLS = {"inplace_impl": edited("15-01", "inplace_impl",
    ("    y = torch.exp(x) + 1\n    y.sum().backward()\n    return x.grad",
     "    with torch.no_grad():\n        x.grad = torch.exp(x)\n    return x.grad"))}
EXPECT = {"inplace": "fail"}
