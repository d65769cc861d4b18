"""Round 19: hvp follows the text's flattened picture literally: it runs jvp(grad(g)) on x.view(-1) and
v.view(-1), with g(flat) = f(flat.view(x.shape)), and views the result back. The numbers are right for
contiguous x and v, but a transposed x or v (a valid tensor of x's shape) makes .view raise instead of returning
H v. The text: "f maps a floating-point tensor x of any shape ... v has x's shape and dtype" and "Return H v with
x's shape"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "fail", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"hvp_impl": edited("16-02", "hvp_impl", (
    "    return jvp(grad(f), (x,), (v,))[1]\n",
    "    shape = x.shape\n\n    def g(flat):\n        return f(flat.view(shape))\n\n"
    "    return jvp(grad(g), (x.view(-1),), (v.view(-1),))[1].view(shape)\n"))}
