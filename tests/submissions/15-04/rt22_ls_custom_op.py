"""Red team 22: label smoothing handed to F.cross_entropy inside an operator of the submission's own registry
(torch.library.custom_op, with its autograd formula from F.cross_entropy too). A TorchFunctionMode is shown
`rt22.ls_ce` only, and the op's kernel runs with the mode popped, so the judge's watch on torch's cross-entropy
entry points saw nothing. The text says: "do **not** call `F.cross_entropy` or `nn.CrossEntropyLoss`"."""
from course.grading.class_run.submissions import edited

_OP = '''import torch.library

_ce = F.cross_entropy  # bound when the cell runs


@torch.library.custom_op("rt22::ls_ce", mutates_args=())
def _ls_ce(logits: torch.Tensor, target: torch.Tensor, smoothing: float) -> torch.Tensor:
    return _ce(logits, target, label_smoothing=smoothing, reduction="none")


@_ls_ce.register_fake
def _(logits, target, smoothing):
    return logits.new_empty(logits.shape[:1])


def _setup(ctx, inputs, output):
    ctx.save_for_backward(inputs[0], inputs[1])
    ctx.smoothing = inputs[2]


def _backward(ctx, grad):
    logits, target = ctx.saved_tensors
    with torch.enable_grad():
        l = logits.detach().requires_grad_(True)
        out = _ce(l, target, label_smoothing=ctx.smoothing, reduction="none")
        (g,) = torch.autograd.grad(out, l, grad)
    return g, None, None


_ls_ce.register_autograd(_backward, setup_context=_setup)


'''
CELLS = {"label_smoothing_impl": _OP + edited(
    "15-04", "label_smoothing_impl",
    ("    log_p = logits - torch.logsumexp(logits, dim=1, keepdim=True)\n"
     "    nll = -log_p.gather(1, target.unsqueeze(1)).squeeze(1)\n"
     "    uniform = -log_p.mean(dim=1)\n"
     "    loss = (1.0 - smoothing) * nll + smoothing * uniform\n",
     "    loss = _ls_ce(logits, target, float(smoothing))\n"))}
EXPECT = {"label_smoothing": "fail"}
