"""Held-out round 29: the blend is written the TensorFlow way, `ema -= (1 - decay) * (ema - live)`,
computed in the parameter's dtype. In float16 the difference overflows: ema = -40000, live = 40000,
decay = 0.5 gives inf where AveragedModel (whose lerp computes in float32) gives 0. The text: "every later
call sets each parameter to `decay * ema + (1 - decay) * live`" and "equal those of `AveragedModel`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("                    ema_p.lerp_(p.to(ema_p.device), 1.0 - self.decay)\n",
     "                    ema_p.sub_((1.0 - self.decay) * (ema_p - p.to(ema_p.device)))\n"),
    ("                    ema_b.lerp_(b.to(ema_b.device), 1.0 - self.decay)\n",
     "                    ema_b.sub_((1.0 - self.decay) * (ema_b - b.to(ema_b.device)))\n"))}
