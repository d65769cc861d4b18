"""Held-out round 20: with average_buffers=True only float32 buffers are averaged (`dtype == torch.float32`);
float64, float16 and bfloat16 buffers (a model in another precision) are copied like counters. The text:
"with `average_buffers=True` average floating-point buffers like parameters (after the first update) and copy
integer buffers"."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("not first and ema_b.is_floating_point():\n",
     "not first and ema_b.dtype == torch.float32:\n"))}
