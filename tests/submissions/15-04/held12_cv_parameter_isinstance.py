"""Held-out round 12: the single-tensor case is recognised only for `nn.Parameter`. A plain tensor with a
.grad (`torch.zeros(3, requires_grad=True)`) is iterated row by row; a row is a view whose .grad is None, so
nothing is clamped, silently. The text: "accept a generator or a single tensor"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_value": "fail"}
CELLS = {"clip_value_impl": edited(
    "15-04", "clip_value_impl",
    ("    if isinstance(parameters, torch.Tensor):\n        parameters = [parameters]\n    clip_value",
     "    if isinstance(parameters, nn.Parameter):\n        parameters = [parameters]\n    clip_value"))}
