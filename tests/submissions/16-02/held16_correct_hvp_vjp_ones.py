"""Round 16 (written as wrong, found correct): hvp takes the gradient as vjp(f, x) applied to torch.ones(()), a
0-dim cotangent made without device= or dtype=. Autograd moves and casts a 0-dim gradient to its output's device
and dtype (as it does on a GPU), so this is forward-over-reverse, right on any device: a device check must accept
it."""
from course.grading.class_run.submissions import edited

EXPECT = {"hvp": "pass"}
CELLS = {"hvp_impl": edited("16-02", "hvp_impl", (
    "    return jvp(grad(f), (x,), (v,))[1]\n",
    """    def gradient(z):
        _, pullback = vjp(f, z)
        return pullback(torch.ones(()))[0]

    return jvp(gradient, (x,), (v,))[1]
"""))}
