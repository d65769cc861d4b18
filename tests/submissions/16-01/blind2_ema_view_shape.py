"""Reshapes x to avg's shape with view, which raises when x only broadcasts to avg (a row for a matrix, a scalar
tensor), against 'x of avg's shape or broadcasting to it'."""
EXPECT = {"ema": "fail"}
CELLS = {
    "ema_impl": '''
def register_ema():
    """Register c1601::ema_ (avg <- decay * avg + (1 - decay) * x, in place) and return it."""
    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay).add_(x.view(avg.shape), alpha=1 - decay)

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
}
