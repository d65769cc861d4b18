"""Round 26: hvp by hand with forward_ad over torch.func.grad (the dual numbers of section 1 around the
gradient function): open a level, run grad(f) on x made dual with tangent v, and return the gradient's tangent.
That is forward-over-reverse and right wherever the gradient depends on x, but when it does not (f linear in x,
so H = 0), the gradient carries no tangent and unpack_dual gives None: hvp returns None instead of zeros.
The text: "Return `H v` with `x`'s shape and device, where `H` is the Hessian of `f` at `x`"; wrong input:
f(x) = (w * x).sum() or f(x) = x.sum() for any x and v (H v is a tensor of zeros of x's shape, the answer is
None)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "fail", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"hvp_impl": edited("16-02", "hvp_impl", (
    "    return jvp(grad(f), (x,), (v,))[1]\n",
    "    with fwAD.dual_level():\n"
    "        g = grad(f)(fwAD.make_dual(x, v))\n"
    "        return fwAD.unpack_dual(g).tangent\n"))}
