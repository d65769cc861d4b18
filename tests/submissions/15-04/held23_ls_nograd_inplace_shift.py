"""Held-out round 23: the max-shift of logsumexp is done in place on the caller's logits under
torch.no_grad() ("the shift is free, so it needs no gradient"): values and gradients are right (the loss is
shift-invariant, and autograd never sees the in-place op), but every call leaves the caller's logits shifted
by their row maximum. The text: "Like `F.cross_entropy`, it returns the logits' dtype, leaves its inputs
unchanged and runs on CPU or GPU"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n",
     "    with torch.no_grad():                      # the shift is free: no gradient needed through it\n"
     "        logits.sub_(logits.max(dim=1, keepdim=True).values)\n"
     "    log_p = logits - logits.exp().sum(dim=1, keepdim=True).log()\n"))}
