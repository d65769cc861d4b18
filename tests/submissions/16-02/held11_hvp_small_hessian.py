"""Held-out round 11: hvp forms the full Hessian (jacfwd(jacrev(f)), itself forward-over-reverse) and
multiplies it by v whenever x has at most 32 elements ("small problems: the explicit Hessian is cheap"), and
uses jvp of grad(f) only above that. The text says "Never form the Hessian: no tensor with n * n or more
elements, for x of n elements" for x of any shape."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "fail", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"hvp_impl": edited(
    "16-02", "hvp_impl",
    ("    return jvp(grad(f), (x,), (v,))[1]",
     "    n = x.numel()\n"
     "    if n <= 32:  # small problems: the explicit Hessian is cheap\n"
     "        H = jacfwd(jacrev(f))(x).reshape(n, n)\n"
     "        return (H @ v.reshape(n)).reshape(x.shape)\n"
     "    return jvp(grad(f), (x,), (v,))[1]"))}
