"""Held-out round 20: the max shift for stability is done in place on the caller's logits (under no_grad, so
autograd does not complain); the loss and its gradient are unchanged by a shift, but the caller's logits now
hold logits - max. The text: "Like `F.cross_entropy`, it returns the logits' dtype, leaves its inputs
unchanged"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n",
     "    if logits.numel():\n"
     "        with torch.no_grad():\n"
     "            logits -= logits.amax(dim=1, keepdim=True)\n"
     "    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n"))}
