"""Round 14 (held out): without a generator it draws inside torch.random.fork_rng(), 'so as not to
disturb the global RNG': the first draw after torch.manual_seed(s) is right, but the default generator is
never advanced, so every later call draws the same mask."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n",
    "        if generator is None:\n"
    "            with torch.random.fork_rng(devices=[]):\n"
    "                u = torch.rand(x.shape, dtype=x.dtype, device=x.device)\n"
    "        else:\n"
    "            u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n"))}
