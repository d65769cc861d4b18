"""Correct, written differently: the update as avg -= (1 - decay) * (avg - x), done with torch.sub(..., out=)
into a temporary and copy_ back, the operator built with the functional form of custom_op from a kernel
defined outside register_ema, and a fake kernel that is a lambda."""
EXPECT = {"ema": "pass"}
CELLS = {
    "ema_impl": '''
def _ema_kernel(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
    step = (avg - x) * (1.0 - decay)
    avg.copy_(torch.sub(avg, step))


def register_ema():
    op = torch.library.custom_op("c1601::ema_", _ema_kernel, mutates_args=("avg",))
    op.register_fake(lambda avg, x, decay: None)
    return op
''',
}
