"""Held-out round 13: x is flattened with .view(-1) to work on a vector and the result reshaped back. A
transposed, sliced or expanded x (any tensor of that shape) is not viewable and raises. The text: "`x` is a
floating-point tensor of any shape (0-dim included)" and "Return the Jacobian of `f` at `x`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"jacobian": "fail"}
CELLS = {"jacobian_impl": edited(
    "16-02", "jacobian_impl",
    ("    if x.numel() < n_out:\n        return jacfwd(f)(x)\n    return jacrev(f)(x)\n",
     "    flat = x.view(-1)\n"
     "    g = lambda z: f(z.view(x.shape))\n"
     "    J = jacfwd(g)(flat) if x.numel() < n_out else jacrev(g)(flat)\n"
     "    return J.reshape(J.shape[:J.dim() - 1] + x.shape)\n"))}
