"""Wrong (held-out round 3): the draw is torch.rand(*x.shape, ...), which raises for a 0-dim x (torch.rand()
with no size), though the text asks for x of any shape."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "u = torch.rand(x.shape, generator=generator,", "u = torch.rand(*x.shape, generator=generator,"))}
