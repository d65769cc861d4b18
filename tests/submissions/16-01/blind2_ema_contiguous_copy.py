"""Calls .contiguous() on avg 'for safety' before updating it: for a non-contiguous avg the update goes into a copy and
avg is left unchanged."""
EXPECT = {"ema": "fail"}
CELLS = {
    "ema_impl": '''
def register_ema():
    """Register c1601::ema_ (avg <- decay * avg + (1 - decay) * x, in place) and return it."""
    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        a = avg.contiguous()
        a.mul_(decay).add_(x.contiguous(), alpha=1 - decay)

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
}
