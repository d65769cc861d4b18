"""Held-out round 8, wrong: SiLU.backward multiplies the incoming gradient in place (g.mul_) and returns it,
so torch.autograd.grad(SiLU.apply(x), x, v) overwrites the caller's v with the result. Breaks
"backward(ctx, g) returns g * f'(x)": it returns a new product, it does not turn g into it."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        return g * (s + x * s * (1 - s))\n",
    "        return g.mul_(s + x * s * (1 - s))\n"))}
