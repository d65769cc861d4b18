"""Held-out round 25: the first update "copies" by a lerp with weight 1 (`w = 1.0 if first else 1 - decay;
ema.lerp_(live, w)`), for parameters and buffers. lerp(start, end, 1) is `end - (end - start) * 0`, which
is `end` only while the construction-time value is finite: a model built with uninitialised (nan/inf)
weights (torch.empty, meta-to-empty) and loaded after the EMA was made keeps nan forever. The text: "the
first call copies `model`'s parameters and buffers into `self.module`" and "The weights at construction time
never enter the average"."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("                if first:\n"
     "                    ema_p.copy_(p)\n"
     "                else:\n"
     "                    ema_p.lerp_(p.to(ema_p.device), 1.0 - self.decay)\n",
     "                ema_p.lerp_(p.to(ema_p.device), 1.0 if first else 1.0 - self.decay)\n"),
    ("                if self.average_buffers and not first and ema_b.is_floating_point():\n"
     "                    ema_b.lerp_(b.to(ema_b.device), 1.0 - self.decay)\n",
     "                if self.average_buffers and ema_b.is_floating_point():\n"
     "                    ema_b.lerp_(b.to(ema_b.device), 1.0 if first else 1.0 - self.decay)\n"))}
