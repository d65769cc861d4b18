"""Updates through avg.view(-1) and x.reshape(-1): breaks for non-contiguous avg and broadcasting x."""
EXPECT = {'ema': 'fail'}
CELLS = {
    'ema_impl': '''
def register_ema():
    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        flat = avg.view(-1)
        flat.mul_(decay).add_(x.reshape(-1), alpha=1 - decay)

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
}
