"""Held-out round 9: EMA with average_buffers=True decides what to average with b.dtype in (float32, float64),
so float16 and bfloat16 buffers (a model after .half()) are copied instead of averaged. The text says: "average
floating-point buffers like parameters (after the first update) and copy integer buffers"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("if self.average_buffers and not first and ema_b.is_floating_point():",
     "if self.average_buffers and not first and ema_b.dtype in (torch.float32, torch.float64):"))}
