"""Wrong (held-out round 8): gelu_dropout saves the generator's state before the draw and puts it back after,
"so that the call is reproducible": the mask is right, but the generator never advances, and every call
with the same generator draws the same mask. Breaks "draws `u = torch.rand(x.shape, generator=generator,
...)` once" and, by contrast, "With `p == 0` it draws nothing (the generator's state is left alone)"
(Exercise 4, fourth bullet): a draw with p > 0 consumes the generator."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n",
    "        state = generator.get_state() if generator is not None else None\n"
    "        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n"
    "        if state is not None:\n            generator.set_state(state)\n"))}
