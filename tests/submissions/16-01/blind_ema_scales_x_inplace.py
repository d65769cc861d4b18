"""Saves an allocation by scaling x in place, x.mul_(1 - decay), before adding it: avg is right, but x is
changed (the text says x is left unchanged), and the schema does not declare it."""
EXPECT = {"ema": "fail"}
CELLS = {
    "ema_impl": '''
def register_ema():
    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay).add_(x.mul_(1 - decay))

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
}
