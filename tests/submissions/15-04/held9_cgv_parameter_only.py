"""Held-out round 9: clip_grad_value recognises a single parameter with isinstance(parameters, nn.Parameter),
so a plain tensor with requires_grad=True and a .grad is iterated row by row instead (its rows are
non-leaf views without .grad) and its gradient is never clamped. The text says it accepts "a generator or a
single tensor"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "fail", "ema": "pass"}
CELLS = {"clip_value_impl": edited(
    "15-04", "clip_value_impl",
    ("    if isinstance(parameters, torch.Tensor):\n",
     "    if isinstance(parameters, nn.Parameter):\n"),
    ("        if p.grad is not None:\n",
     "        if p.is_leaf and p.grad is not None:\n"))}
