"""Held-out round 25: after validating its arguments, the function hands everything to
torch._C._nn.cross_entropy_loss, the C++ binding that F.cross_entropy itself calls (reduction via
torch.nn._reduction.get_enum). Every number matches, but the text says: "Implement it from
log-probabilities (`torch.logsumexp` or `F.log_softmax`); do **not** call `F.cross_entropy` or
`nn.CrossEntropyLoss`"; wrong on every input (a "how" sentence)."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n",
     "    return torch._C._nn.cross_entropy_loss(logits, target, None, torch.nn._reduction.get_enum(reduction),\n"
     "                                          -100, float(smoothing))\n"
     "    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n"))}
