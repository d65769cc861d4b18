"""Draws the mask from the global generator, ignoring the one passed in."""
from course.grading.class_run.submissions import edited

EXPECT = {"fused": "fail"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", ("torch.rand(x.shape, generator=generator, dtype=x.dtype",
                                                      "torch.rand(x.shape, dtype=x.dtype"))}
