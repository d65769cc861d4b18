"""Declares the operator functional (mutates_args=()): eager calls work, the compiler drops the update."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited("16-01", "ema_impl", (
    '''    @torch.library.custom_op("c1601::ema_", mutates_args={"avg"})
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay).add_(x, alpha=1 - decay)
''', '''    @torch.library.custom_op("c1601::ema_", mutates_args=())
    def ema_(avg: torch.Tensor, x: torch.Tensor, decay: float) -> None:
        avg.mul_(decay).add_(x, alpha=1 - decay)

    ema_.register_fake(lambda avg, x, decay: None)
'''))}
