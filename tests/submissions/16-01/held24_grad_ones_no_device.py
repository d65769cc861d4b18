"""Round 24 (held out): the backward builds the derivative from an explicit ones tensor made without device=
(torch.ones(y.shape, dtype=y.dtype)), so it is a CPU tensor whatever y's device. Values, gradcheck and
gradgradcheck are right on the CPU; on a GPU, every backward through smooth_clip of a tensor with at least one
dimension raises (a CPU tensor minus a CUDA tensor), against "The gradient with respect to x is
grad * (1 - (y / limit)**2) ... for float32 and float64 inputs of any shape" (and "Runs on CPU or GPU")."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "fail", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"grad_impl": edited("16-01", "grad_impl", (
    "    return grad * (1 - (y / ctx.limit) ** 2), None\n",
    "    one = torch.ones(y.shape, dtype=y.dtype)\n"
    "    return grad * (one - (y / ctx.limit) ** 2), None\n"))}
