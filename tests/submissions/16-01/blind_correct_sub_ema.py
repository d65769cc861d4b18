"""Correct, written differently: the update as (1 - decay) * x - (-decay) * avg by torch.sub with alpha
into a temporary and copy_ back (until round 17 avg - (1 - decay)(avg - x), which leaves 0, not x, at decay 0
for an avg 1e18 times larger than x), the operator built with the functional form of custom_op from a kernel
defined outside register_ema, and a fake kernel that is a lambda."""
EXPECT = {"ema": "pass"}
CELLS = {
    "ema_impl": '''
def _ema_kernel(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
    step = x * (1.0 - decay)
    avg.copy_(torch.sub(step, avg, alpha=-decay))


def register_ema():
    op = torch.library.custom_op("c1601::ema_", _ema_kernel, mutates_args=("avg",))
    op.register_fake(lambda avg, x, decay: None)
    return op
''',
}
