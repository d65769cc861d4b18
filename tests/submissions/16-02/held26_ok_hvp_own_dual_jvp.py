"""Round 26, correct but unusual: hvp reuses the notebook's own dual_jvp (Exercise 2, torch.autograd.forward_ad)
as the forward-mode outer layer around torch.func.grad(f): dual_jvp(grad(f), (x,), (v,))[1]. This is forward over
reverse, a jvp of grad(f): the gradient is computed on a dual x carrying v, and its tangent is H v. Where the
gradient does not depend on x (f linear, H = 0) dual_jvp's own rule gives zeros of the gradient's shape, dtype
and device; a zero or expanded v, 0-dim and empty x, float32, x that requires grad and a caller under no_grad all
give torch.func.jvp's answer, and nothing of n * n elements is made."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"hvp_impl": edited("16-02", "hvp_impl", (
    "    return jvp(grad(f), (x,), (v,))[1]\n",
    "    return dual_jvp(grad(f), (x,), (v,))[1]\n"))}
