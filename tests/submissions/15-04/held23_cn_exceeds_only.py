"""Held-out round 23: the gradients are scaled only when the total norm exceeds max_norm, "if it exceeds
max_norm, scale"; clip_grad_norm_ applies min(1, max_norm / (total + 1e-6)) always, so for a total norm at
or just below max_norm (tiny gradients, e.g. total 1e-6 with max_norm 1e-6 gives coef 0.5) PyTorch scales
and this leaves them. The text: "Scale all .grad tensors by min(1, max_norm / (total_norm + 1e-6))" and
"Same semantics as `torch.nn.utils.clip_grad_norm_`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n",
     "    if not total > max_norm:                   # within bounds: nothing to clip\n"
     "        return total\n"
     "    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n"))}
