"""Held-out round 25: with average_buffers=True the floating-point buffers are blended from the very first
update (the `first` test is applied to parameters only), so BatchNorm's construction-time running_mean
(zeros) and running_var (ones) enter the average. The text: "with `average_buffers=True` average
floating-point buffers like parameters (after the first update)" and "the first call copies `model`'s
parameters and buffers"; it goes wrong whenever a buffer changed between construction and the first
update (a train-mode forward, a loaded checkpoint)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("                if self.average_buffers and not first and ema_b.is_floating_point():\n",
     "                if self.average_buffers and ema_b.is_floating_point():\n"))}
