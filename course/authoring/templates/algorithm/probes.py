"""Probes for __TOPIC_ID__: run next to the submission, return plain data only."""
import torch

from course.judge.probelib import get
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)


def logaddexp_vjp(ns, a, b, v):
    """stable_logaddexp(a, b), and the gradients of <v, output> with respect to a and b."""
    a, b = a.clone().requires_grad_(True), b.clone().requires_grad_(True)
    out = get(ns, "stable_logaddexp")(a, b)
    if not isinstance(out, torch.Tensor):
        return {"out": repr(type(out)), "ga": None, "gb": None}
    if out.grad_fn is None or out.shape != v.shape:
        return {"out": out.detach(), "ga": None, "gb": None}
    ga, gb = torch.autograd.grad(out, (a, b), v, allow_unused=True)
    return {"out": out.detach(), "ga": ga, "gb": gb}


def logaddexp_value(ns, a, b):
    out = get(ns, "stable_logaddexp")(a, b)
    return out.detach() if isinstance(out, torch.Tensor) else repr(type(out))
