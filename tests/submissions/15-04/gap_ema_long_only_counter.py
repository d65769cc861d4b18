"""Known-wrong EMA (gap round): with average_buffers=True, treats only int64 buffers as counters and averages
every other buffer, so an int32 or bool buffer goes through lerp_ (an error) instead of being copied."""
from course.grading.class_run.submissions import edited

CELLS = {"ema_impl": edited("15-04", "ema_impl",
    ("if self.average_buffers and not first and ema_b.is_floating_point():",
     "if self.average_buffers and not first and ema_b.dtype != torch.long:"))}
EXPECT = {"ema": "fail"}
