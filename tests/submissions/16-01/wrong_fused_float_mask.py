"""Saves the scaled mask as a float tensor for the backward (4 or 8 bytes an element instead of 1)."""
from course.grading.class_run.submissions import edited

EXPECT = {"fused": "fail"}
CELLS = {"fused_impl": edited("16-01", "fused_impl",
                              ("    ctx.save_for_backward(x, keep)\n", "    ctx.save_for_backward(x, keep.to(x.dtype) / (1 - p))\n"),
                              ("    x, keep = ctx.saved_tensors\n", "    x, scale = ctx.saved_tensors\n"),
                              ("return grad * keep / (1 - ctx.p) * d, None, None", "return grad * scale * d, None, None"))}
