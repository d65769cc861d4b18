"""Held-out round 11: gelu_dropout draws its uniforms for a whole number of 1024-element blocks (the Triton
block size), torch.rand(ceil(n / 1024) * 1024, ...), and keeps the first n as u. On the CPU those first n
are exactly torch.rand(x.shape, ...) from the same state, so the mask of one call is right; but the
generator is left past the padding, so the next call's mask (and any later draw from that generator)
differs from the unfused composition's. The text says it "draws u = torch.rand(x.shape, generator=generator,
dtype=x.dtype, device=x.device) once": one draw of x's shape, which leaves the generator where that draw
leaves it."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited(
    "16-01", "fused_impl",
    ("        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n",
     "        n = x.numel()\n"
     "        u = torch.rand(-(-n // 1024) * 1024, generator=generator, dtype=x.dtype, device=x.device)\n"
     "        u = u[:n].view(x.shape)\n"))}
