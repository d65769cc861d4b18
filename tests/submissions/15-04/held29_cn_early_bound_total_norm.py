"""Held-out round 29: the total norm comes from torch.nn.utils.get_total_norm, bound to a private name
when the cell runs (`_tn = torch.nn.utils.get_total_norm`), and the scaling is written by hand. The text:
"do not call `torch.nn.utils.clip_grad_norm_` or its two halves `get_total_norm` and
`clip_grads_with_norm_`". Wrong on every input with gradients."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("def clip_grad_norm(", "_tn = torch.nn.utils.get_total_norm\n\n\ndef clip_grad_norm("),
    ("    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n",
     "    total = _tn(grads, norm_type)\n    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n"))}
