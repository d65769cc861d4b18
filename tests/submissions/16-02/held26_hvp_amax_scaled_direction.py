"""Round 26: hvp rescales the direction by its largest entry (robust to over- and underflow, unlike the norm):
u = v / max|v| (a zero max replaced by 1), H v = max|v| * H u. Right for every x with at least one element, but
`amax` of an empty tensor raises ("Expected reduction dim to be specified for input.numel() == 0"), so an empty
x, which "any shape" allows, makes hvp raise instead of returning an empty H v. The text: "`f` maps a
floating-point tensor `x` of any shape (0-dim included) to a 0-dim tensor" and "Return `H v` with `x`'s shape";
wrong input: x and v of shape (0,) or (2, 0), f(x) = (x ** 3).sum() (H v is empty of x's shape, the answer is
a RuntimeError)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "fail", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"hvp_impl": edited("16-02", "hvp_impl", (
    "    return jvp(grad(f), (x,), (v,))[1]\n",
    "    scale = v.abs().amax()\n"
    "    u = v / torch.where(scale == 0, torch.ones_like(scale), scale)\n"
    "    return jvp(grad(f), (x,), (u,))[1] * scale\n"))}
