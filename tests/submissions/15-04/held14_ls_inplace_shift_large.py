"""Held-out round 14: to save a copy of a big batch, logits that do not require grad and are large (|z| > 30)
are shifted by their row maximum IN PLACE before the logsumexp; the loss is right, but the caller's logits
are changed. The text: "Like `F.cross_entropy`, it returns the logits' dtype, leaves its inputs unchanged"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n",
     "    if logits.numel() and not logits.requires_grad and logits.abs().max() > 30:\n"
     "        logits = logits.sub_(logits.max(dim=1, keepdim=True).values)   # big logits: shift in place\n"
     "    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n"))}
