"""Round 22: hvp works on flat vectors, as the text's "hessian(f, x).reshape(n, n) @ v.reshape(n)" does, but
flattens with .view: x.view(-1) and v.view(-1), and f sees z.view(x.shape). Right for every contiguous x (and a
1-D expanded v), but a transposed x (any non-contiguous layout .view refuses) raises RuntimeError instead of
returning H v. The text: "f maps a floating-point tensor x of any shape ... Return H v with x's shape"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "fail", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"hvp_impl": edited("16-02", "hvp_impl", (
    "    return jvp(grad(f), (x,), (v,))[1]",
    "    shape = x.shape\n"
    "    hv = jvp(grad(lambda z: f(z.view(shape))), (x.view(-1),), (v.view(-1),))[1]\n"
    "    return hv.view(shape)"))}
