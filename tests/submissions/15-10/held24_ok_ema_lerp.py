"""Correct but unusual (held-out round 24): EMACallback blends with Tensor.lerp_ (ema + (1-decay)*(w - ema)),
the very kernel AveragedModel's get_ema_multi_avg_fn uses (torch._foreach_lerp_), instead of mul_/add_; the
first update still copies, shadows stay detached, and a batch without a new optimizer step does nothing. It
differs from the reference only in the last bits of the averaged weights, as AveragedModel itself does."""
from course.grading.class_run.submissions import edited

EXPECT = {"callbacks": "pass", "clipping": "pass", "sampler": "pass", "rng": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
CELLS = {"callbacks_impl": edited(
    "15-10", "callbacks_impl",
    ("                    s.mul_(self.decay).add_(w, alpha=1.0 - self.decay)\n",
     "                    s.lerp_(w.to(s.dtype), 1.0 - self.decay)\n"))}
