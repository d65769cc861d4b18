"""Correct, written differently (held-out round 3): ema_ declared with mutates_args=("avg",) and written as
avg.copy_(torch.lerp(x, avg, decay)) (lerp returns avg exactly at decay 1 and x at decay 0); gelu_dropout's mask
from Tensor.ge on the draw, the p == 0 mask from ones_like(x, dtype=torch.bool)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"ema_impl": '''
def register_ema():
    """Register c1601::ema_ (avg <- decay * avg + (1 - decay) * x, in place) and return it."""
    def _kernel(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.copy_(torch.lerp(x.expand_as(avg), avg, decay))

    return torch.library.custom_op("c1601::ema_", _kernel, mutates_args=("avg",))
''', "fused_impl": edited("16-01", "fused_impl", (
    "        keep = torch.ones(x.shape, dtype=torch.bool, device=x.device)\n",
    "        keep = torch.ones_like(x, dtype=torch.bool)\n"), (
    "        keep = u >= p\n", "        keep = u.ge(p)\n"))}
