"""Wrong: "Every tensor it creates is on x's device, so it runs on a GPU as on the CPU" (and "without a
generator" the draw comes from PyTorch's default generator for x's device). This version makes the
generator explicit as torch.default_generator when none is given: that is the CPU generator, so on a GPU
(or any other device) torch.rand(..., device=x.device, generator=torch.default_generator) raises."""
from course.grading.class_run.submissions import edited

EXPECT = {"fused": "fail"}
CELLS = {"fused_impl": edited(
    "16-01", "fused_impl",
    ("        u = torch.rand(x.shape, generator=generator,",
     "        generator = generator if generator is not None else torch.default_generator\n"
     "        u = torch.rand(x.shape, generator=generator,"))}
