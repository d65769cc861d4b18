"""Held-out round 9: EMA.update switches autograd off by model.requires_grad_(False) and back on with
model.requires_grad_(True) afterwards, which unfreezes any live parameter that was frozen (requires_grad=False)
before the call. The text says: "Build no autograd graph and never modify model"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("        first = self.num_updates == 0\n",
     "        first = self.num_updates == 0\n"
     "        model.requires_grad_(False)\n"),
    ("        self.num_updates += 1\n",
     "        model.requires_grad_(True)\n"
     "        self.num_updates += 1\n"))}
