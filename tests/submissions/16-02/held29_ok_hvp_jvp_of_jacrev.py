"""Round 29, correct but unusual: hvp differentiates jacrev(f) instead of grad(f). For a 0-dim f, jacrev(f)(x)
is the gradient (shape x.shape: one vjp with the single cotangent 1), so jvp(jacrev(f), (x,), (v,))[1] is the
same forward-over-reverse product: derivative formulas run in forward mode over the reverse pass, nothing of
n * n elements is made, and 0-dim and empty x work."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"hvp_impl": edited("16-02", "hvp_impl", (
    "    return jvp(grad(f), (x,), (v,))[1]\n",
    "    _, hv = jvp(jacrev(f), (x,), (v,))\n"
    "    return hv\n"))}
