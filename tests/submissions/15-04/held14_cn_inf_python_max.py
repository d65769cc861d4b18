"""Held-out round 14: the inf-norm is Python's built-in max over the per-tensor maxima; Python's max skips a
nan that is not first (nan > x is False), so a nan gradient in any but the first parameter gives a finite
total and finite scaled gradients, where clip_grad_norm_ returns nan and scales every gradient to nan.
The text: "Same semantics as `torch.nn.utils.clip_grad_norm_`"; "`norm_type=float("inf")` means the largest
absolute entry"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_norm": "fail"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("        per_tensor = [g.detach().abs().max() for g in grads]\n"
     "        total = torch.stack([t.to(grads[0].device) for t in per_tensor]).max()\n",
     "        total = max(g.detach().abs().max().to(grads[0].device) for g in grads)\n"))}
