"""Known-wrong label smoothing (gap round): calls cross-entropy under another name, imported at the top of the
cell (`from torch.nn.functional import cross_entropy as _ce`), which the text forbids."""
from course.grading.class_run.submissions import edited

CELLS = {"label_smoothing_impl": "from torch.nn.functional import cross_entropy as _ce\n\n" + edited(
    "15-04", "label_smoothing_impl",
    ("    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n"
     "    nll = -log_p.gather(1, target.unsqueeze(1)).squeeze(1)\n"
     "    uniform = -log_p.mean(dim=1)\n"
     "    loss = (1.0 - smoothing) * nll + smoothing * uniform\n",
     "    loss = _ce(logits, target, label_smoothing=smoothing, reduction='none')\n"))}
EXPECT = {"label_smoothing": "fail"}
