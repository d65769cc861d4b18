"""Round 20 (held out): gelu_dropout puts the generator's state back after its draw ('leave the caller's
generator alone'), so two calls with the same generator draw the same mask: the text draws u from the
generator (advancing it), leaving its state alone only for p == 0."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n",
    "        state = generator.get_state() if generator is not None else None\n"
    "        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n"
    "        if state is not None:\n"
    "            generator.set_state(state)\n"))}
