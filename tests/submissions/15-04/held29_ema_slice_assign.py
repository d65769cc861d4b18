"""Held-out round 29: the blend writes through a full slice, `ema_p[:] = decay * ema_p + (1 - decay) * p`
(same for averaged float buffers). A 0-dim parameter (a learnable scale `nn.Parameter(torch.tensor(1.))`,
a temperature) cannot be sliced: the second update() raises IndexError. The text: "every later call sets
each parameter to `decay * ema + (1 - decay) * live`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("                    ema_p.lerp_(p.to(ema_p.device), 1.0 - self.decay)\n",
     "                    ema_p[:] = self.decay * ema_p + (1.0 - self.decay) * p.to(ema_p.device)\n"),
    ("                    ema_b.lerp_(b.to(ema_b.device), 1.0 - self.decay)\n",
     "                    ema_b[:] = self.decay * ema_b + (1.0 - self.decay) * b.to(ema_b.device)\n"))}
