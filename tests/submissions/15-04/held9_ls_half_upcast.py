"""Held-out round 9: label_smoothing_cross_entropy upcasts float16 / bfloat16 logits to float32 "for stability"
and never casts the loss back, so half-precision logits get a float32 loss where F.cross_entropy returns the
logits' dtype. The text says: "Like F.cross_entropy, it returns the logits' dtype"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n",
     "    if logits.dtype in (torch.float16, torch.bfloat16):\n"
     "        logits = logits.float()\n"
     "    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n"))}
