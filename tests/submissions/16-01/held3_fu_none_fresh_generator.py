"""Wrong (held-out round 3): gelu_dropout without a generator makes a fresh torch.Generator(device=x.device),
whose seed is always the same: every call draws the same mask, instead of drawing from the global RNG as
torch.rand(..., generator=None) does."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "        u = torch.rand(x.shape, generator=generator,",
    "        if generator is None:\n            generator = torch.Generator(device=x.device)\n"
    "        u = torch.rand(x.shape, generator=generator,"))}
