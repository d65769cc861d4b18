"""Round 17 (held out): 'the generator's state is left alone' (a clause for p == 0) applied to every p: the
mask is drawn from a private copy of the caller's generator, so the caller's generator never advances and two
calls in a row draw the same mask, against 'draws u = torch.rand(x.shape, generator=generator, ...) once'."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n",
    "        g = generator\n"
    "        if generator is not None:  # leave the caller's generator as it was\n"
    "            g = torch.Generator(device=generator.device)\n"
    "            g.set_state(generator.get_state())\n"
    "        u = torch.rand(x.shape, generator=g, dtype=x.dtype, device=x.device)\n"))}
