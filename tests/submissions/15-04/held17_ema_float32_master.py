"""Held-out round 17: the average is kept as a float32 "master copy" (copy.deepcopy(model).float(), the live
weights upcast at each update), a habit from mixed-precision training. A float64 model's average is rounded
to float32 and a float16 model's average changes dtype. The text: `self.module` is "an `nn.Module` of the same
architecture" whose parameters "equal those of `AveragedModel(...)` after `k` calls"."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("        self.module = copy.deepcopy(model)\n",
     "        self.module = copy.deepcopy(model).float()   # keep the average in full precision\n"),
    ("                    ema_p.copy_(p)\n",
     "                    ema_p.copy_(p.float())\n"),
    ("                    ema_p.lerp_(p.to(ema_p.device), 1.0 - self.decay)\n",
     "                    ema_p.lerp_(p.to(ema_p.device).float(), 1.0 - self.decay)\n"))}
