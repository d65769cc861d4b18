"""Round 29: for a 0-dim x, hvp takes the shortcut "the Hessian of a function of one number is its second
derivative" and returns grad(grad(f))(x) * v: reverse over reverse, no forward-mode formula runs. Values,
shape, dtype and device are right; only the how is wrong, and only for 0-dim x (every other shape uses
jvp(grad(f))).
The text: "Compute it as a forward-mode derivative of the gradient (`jvp` of `grad(f)`), so that derivative
formulas run in forward mode over the reverse pass" (for `x` of any shape, "0-dim and empty included"); wrong
input: any 0-dim x, e.g. f(x) = SiLU.apply(x) ** 3 with x = tensor(0.7): no jvp formula runs."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "fail", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"hvp_impl": edited("16-02", "hvp_impl", (
    "    return jvp(grad(f), (x,), (v,))[1]\n",
    "    if x.dim() == 0:\n"
    "        return grad(grad(f))(x) * v\n"
    "    return jvp(grad(f), (x,), (v,))[1]\n"))}
