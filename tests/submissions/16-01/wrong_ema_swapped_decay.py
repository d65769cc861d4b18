"""Weights the new value by decay and the average by 1 - decay."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited("16-01", "ema_impl", ("avg.mul_(decay).add_(x, alpha=1 - decay)",
                                                  "avg.mul_(1 - decay).add_(x, alpha=decay)"))}
