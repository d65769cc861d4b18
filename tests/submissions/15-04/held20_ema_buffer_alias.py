"""Held-out round 20: with average_buffers=False the buffers are "copied" by `ema_b.data = b.data`, so the
EMA's buffers become the live model's buffers: later train-mode forwards of the live model move the EMA's
BatchNorm statistics without any update() call. The text: "keeps a deep copy of `model` in `self.module` (an
`nn.Module` of the same architecture, sharing no memory with `model`)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("                else:\n                    ema_b.copy_(b)\n",
     "                elif not self.average_buffers:\n                    ema_b.data = b.data\n"
     "                else:\n                    ema_b.copy_(b)\n"))}
