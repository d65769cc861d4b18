"""Computes the average in float32 and copies it back: float64 averages lose precision."""
EXPECT = {'ema': 'fail'}
CELLS = {
    'ema_impl': '''
def register_ema():
    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.copy_(decay * avg.float() + (1 - decay) * x.float())

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
}
