"""Written as wrong (no fake kernel; the exercise does not name one), but not wrong: PyTorch 2.14 generates the fake
kernel of an operator that only mutates and returns nothing, and the compiled double call leaves avg as the eager
calls do (checked by hand and with torch.library.opcheck). Kept as a correct example: a check must not demand a fake
kernel the text does not ask for."""
EXPECT = {'ema': 'pass'}
CELLS = {
    'ema_impl': '''
def register_ema():
    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay).add_(x, alpha=1 - decay)

    return ema_
''',
}
