"""Wrong: "Its autograd formula gives x the gradient grad * keep / (1 - p) * gelu'(x)". This backward
works on the incoming gradient in place (grad.mul_(...).div_(...)) to avoid temporaries. The gradient
tensor autograd passes in may be shared (a caller's grad_outputs, an add's backward giving the same
tensor to both operands), so another consumer or the caller sees the scaled values: the gradient of
gelu_dropout(x, p, g1) + gelu_dropout(x, p, g2) with respect to x is wrong."""
from course.grading.class_run.submissions import edited

EXPECT = {"fused": "fail"}
CELLS = {"fused_impl": edited(
    "16-01", "fused_impl",
    ("    return grad * keep / (1 - ctx.p) * d, None, None\n",
     "    return grad.mul_(keep).div_(1 - ctx.p).mul_(d), None, None\n"))}
