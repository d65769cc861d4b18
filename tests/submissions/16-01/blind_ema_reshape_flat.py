"""Updates a flat reshape of avg: avg.reshape(-1) is a view only when avg is contiguous, so for a non-contiguous
avg (a transposed or strided buffer) the update goes into a copy and avg is left unchanged."""
EXPECT = {"ema": "fail"}
CELLS = {
    "ema_impl": '''
def register_ema():
    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        flat = avg.reshape(-1)
        flat.mul_(decay).add_(x.expand_as(avg).reshape(-1), alpha=1 - decay)

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
}
