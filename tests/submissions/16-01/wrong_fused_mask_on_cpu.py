"""Creates the draw without device=: on a GPU the mask lands on the CPU and the operator fails."""
from course.grading.class_run.submissions import edited

EXPECT = {"fused": "fail"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", ("u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)",
                                                      "u = torch.rand(x.shape, generator=generator, dtype=x.dtype)"))}
