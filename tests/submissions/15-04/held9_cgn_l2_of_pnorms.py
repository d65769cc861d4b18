"""Held-out round 9: clip_grad_norm takes each tensor's p-norm but always combines the per-tensor norms with
the 2-norm, so for norm_type 1 (or 3, ...) over several parameters the total is not the p-norm of all
gradients. The text says the total is the norm of the per-tensor norms, "which for the p-norm equals the norm
of the concatenation"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "fail",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("        total = torch.linalg.vector_norm(torch.stack([t.to(grads[0].device) for t in per_tensor]), norm_type)\n",
     "        total = torch.linalg.vector_norm(torch.stack([t.to(grads[0].device) for t in per_tensor]), 2.0)\n"))}
