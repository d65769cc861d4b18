"""Saves a temporary by scaling x in place (x.mul_(1 - decay)) and adding it: avg is right but the caller's x is
changed, and the write to x is not even declared."""
EXPECT = {"ema": "fail"}
CELLS = {
    "ema_impl": '''
def register_ema():
    """Register c1601::ema_ (avg <- decay * avg + (1 - decay) * x, in place) and return it."""
    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay).add_(x.mul_(1 - decay))

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
}
