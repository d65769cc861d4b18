"""Correct (held-out round 8, unusual): gelu_dropout draws u as a flat torch.rand(x.numel(), generator=...,
dtype=x.dtype, device=x.device) and views it as x's shape: the generator yields the same numbers in the same
order as torch.rand(x.shape, ...), so the mask, the generator's state afterwards and the result are those
of the text's draw."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n",
    "        u = torch.rand(x.numel(), generator=generator, dtype=x.dtype, device=x.device).view(x.shape)\n"))}
