"""Draws u in the default dtype (float32) whatever x's dtype: float64 inputs get another mask."""
from course.grading.class_run.submissions import edited

EXPECT = {"fused": "fail"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", ("u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)",
                                                      "u = torch.rand(x.shape, generator=generator, device=x.device)"))}
