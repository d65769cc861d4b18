"""Held-out round 29: the loss is handed to a TorchScript function compiled from a string, which calls
torch.nn.functional.cross_entropy(..., label_smoothing=eps) inside the TorchScript interpreter (the name is
spelled in pieces). Every value, gradient, dtype and device matches, but the text says: "do **not** call
`F.cross_entropy` or `nn.CrossEntropyLoss` (nor hand the loss to `torch.cond` or an operator of your own
`torch.library` registry, whose inside the grader cannot see)". Wrong on every input."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("def label_smoothing_cross_entropy(",
     "_CU = torch.jit.CompilationUnit(\n"
     "    'def f(x: torch.Tensor, t: torch.Tensor, eps: float, red: str):\\n'\n"
     "    '    return torch.nn.functional.' + 'cross' + '_entropy' + '(x, t, reduction=red, label_smoothing=eps)\\n')\n"
     "\n\ndef label_smoothing_cross_entropy("),
    ("    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n",
     "    return _CU.f(logits, target, float(smoothing), reduction)\n"
     "    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n"))}
