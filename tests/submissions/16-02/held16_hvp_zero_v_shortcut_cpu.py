"""Round 16: hvp returns zeros at once when v is all zero, made without device= (on the default device, not x's):
for x on a GPU the result lies on the CPU. H v of CUDA tensors is a CUDA tensor (torch.autograd.functional.hessian
(f, x) @ v); and the shortcut skips "compute it as a forward-mode derivative of the gradient"."""
from course.grading.class_run.submissions import edited

EXPECT = {"hvp": "fail"}
CELLS = {"hvp_impl": edited("16-02", "hvp_impl", (
    "    return jvp(grad(f), (x,), (v,))[1]\n",
    """    if not bool(v.any()):
        return torch.zeros(x.shape, dtype=x.dtype)
    return jvp(grad(f), (x,), (v,))[1]
"""))}
