"""Held-out round 23: update() skips the live parameters with requires_grad=False ("frozen weights do not
change, so there is nothing to average"); a frozen backbone loaded after the EMA was built (or any frozen
weight changed without gradients) then keeps its construction-time value in the EMA, where
AveragedModel copies it at the first update. The text: "the first call copies `model`'s parameters and
buffers into `self.module`; every later call sets each parameter to `decay * ema + (1 - decay) * live`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("            for ema_p, p in zip(self.module.parameters(), model.parameters()):\n",
     "            for ema_p, p in zip(self.module.parameters(), model.parameters()):\n"
     "                if not p.requires_grad:            # frozen: nothing to average\n"
     "                    continue\n"))}
