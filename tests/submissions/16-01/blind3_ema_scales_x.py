"""Scales x in place before adding it: x is changed."""
EXPECT = {'ema': 'fail'}
CELLS = {
    'ema_impl': '''
def register_ema():
    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        x.mul_(1 - decay)
        avg.mul_(decay).add_(x)

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
}
