"""Held-out round 13: x and v are flattened with .view(-1) so that grad and jvp see a vector. A
non-contiguous x or v (a transposed or expanded tensor of x's shape) is not viewable and raises. The text:
"`f` maps a floating-point tensor `x` of any shape (0-dim included) to a 0-dim tensor; `v` has `x`'s
shape and dtype"."""
from course.grading.class_run.submissions import edited

EXPECT = {"hvp": "fail"}
CELLS = {"hvp_impl": edited(
    "16-02", "hvp_impl",
    ("    return jvp(grad(f), (x,), (v,))[1]\n",
     "    shape = x.shape\n"
     "    hv = jvp(grad(lambda z: f(z.view(shape))), (x.view(-1),), (v.view(-1),))[1]\n"
     "    return hv.view(shape)\n"))}
