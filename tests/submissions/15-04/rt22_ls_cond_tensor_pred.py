"""Red team 22: label smoothing handed to F.cross_entropy (bound to a name of its own when the cell runs) inside a
torch.cond branch that switches torch functions off (torch._C.DisableTorchFunction), a tensor as the predicate.
cond's eager path compiles the branch with torch.compile, which traces the probe's TorchFunctionMode but not the
block run with torch functions off, and the worker's recorder takes the compiled graph's ops for PyTorch's own (the
course::compiled_control_flow range): the judge's watch on torch's cross-entropy entry points saw nothing. The text
says: "do **not** call `F.cross_entropy` or `nn.CrossEntropyLoss`"."""
from course.grading.class_run.submissions import edited

CELLS = {"label_smoothing_impl": "_ce = F.cross_entropy  # bound when the cell runs\n\n" + edited(
    "15-04", "label_smoothing_impl",
    ("    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n"
     "    nll = -log_p.gather(1, target.unsqueeze(1)).squeeze(1)\n"
     "    uniform = -log_p.mean(dim=1)\n"
     "    loss = (1.0 - smoothing) * nll + smoothing * uniform\n",
     "    def _branch(l, t):\n"
     "        with torch._C.DisableTorchFunction():\n            return _ce(l, t, label_smoothing=float(smoothing), reduction='none')\n"
     "    loss = torch.cond(torch.tensor(True), _branch, _branch, (logits, target))\n"))}
EXPECT = {"label_smoothing": "fail"}
