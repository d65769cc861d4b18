"""Declares mutates_args="unknown" (the conservative choice the docs allow) instead of {"avg"}: the schema then
marks x as written to as well; the text says avg, and only avg."""
EXPECT = {"ema": "fail"}
CELLS = {
    "ema_impl": '''
def register_ema():
    @torch.library.custom_op("c1601::ema_", mutates_args="unknown")
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay).add_(x, alpha=1 - decay)

    @ema_.register_fake
    def _(avg, x, decay):
        return None

    return ema_
''',
}
