"""Declares both avg and x as mutated."""
EXPECT = {'ema': 'fail'}
CELLS = {
    'ema_impl': '''
def register_ema():
    @torch.library.custom_op("c1601::ema_", mutates_args={"avg", "x"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay).add_(x, alpha=1 - decay)

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
}
