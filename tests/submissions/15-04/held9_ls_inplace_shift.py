"""Held-out round 9: label_smoothing_cross_entropy does the max-shift itself, in place on the caller's logits
(under torch.no_grad(), so autograd does not object); the loss and its gradient are unchanged because the
softmax ignores a shift, but the caller's tensor comes back shifted. The text says the function "leaves its
inputs unchanged"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n",
     "    if logits.numel():\n"
     "        with torch.no_grad():\n"
     "            logits.sub_(logits.amax(dim=1, keepdim=True))\n"
     "    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n"))}
