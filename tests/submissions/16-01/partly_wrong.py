"""Two realistic mistakes in different tasks; the other tasks keep the reference solution.

- ema_ rebinds its local name instead of updating avg in place;
- gelu_dropout draws its mask from the global generator.
"""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "fail", "fused": "fail", "triton": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
CELLS = {
    "ema_impl": edited("16-01", "ema_impl", ("        avg.mul_(decay).add_(x, alpha=1 - decay)\n",
                                             "        avg = decay * avg + (1 - decay) * x\n")),
    "fused_impl": edited("16-01", "fused_impl", ("torch.rand(x.shape, generator=generator, dtype=x.dtype",
                                                 "torch.rand(x.shape, dtype=x.dtype")),
}
