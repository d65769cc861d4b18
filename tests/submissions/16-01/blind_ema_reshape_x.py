"""Reshapes x to avg's shape before the update (x.reshape_as(avg), "to be safe about shapes"): fine when x has
avg's shape, but an x that only broadcasts to avg (one row for every row of avg) cannot be reshaped and the
call raises; the text allows any x that broadcasts to avg."""
EXPECT = {"ema": "fail"}
CELLS = {
    "ema_impl": '''
def register_ema():
    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay).add_(x.reshape_as(avg), alpha=1 - decay)

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
}
