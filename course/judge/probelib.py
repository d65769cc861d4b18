"""Building blocks for probes (run next to the submission, return plain data).

Probes live in ``tests/<assignment>/probes.py`` and may ``from course.judge.probelib import ...``.
A probe receives the submission's namespace ``ns`` and plain-data arguments,
and returns tensors, numbers, strings, lists or dicts: never student objects.
"""
from __future__ import annotations

import torch

from .pristine import run_fresh  # noqa: F401  (for probes: a fresh interpreter, cheaply)


class Missing(NameError):
    pass


def get(ns: dict, name: str):
    """The submission's object called ``name``, or a clear NameError."""
    if name not in ns:
        raise Missing(f"'{name}' is not defined in your notebook (did you run/keep the cell that defines it?)")
    return ns[name]


def capture_error(fn, *args, **kwargs) -> dict:
    """Call fn and describe whether and how it raised (for 'this must fail' checks)."""
    try:
        fn(*args, **kwargs)
    except Exception as exc:
        return {"raised": True, "type": type(exc).__name__, "message": str(exc)[:500],
                "mro": [c.__name__ for c in type(exc).__mro__]}
    return {"raised": False, "type": "", "message": "", "mro": []}


def _flat_dot(a_list, b_list) -> float:
    return float(sum((a.double() * b.double()).sum() for a, b in zip(a_list, b_list) if a is not None and b is not None))


def vjp(fn, inputs, v):
    """Forward output and gradients of <v, fn(*inputs)> for each input (None where none flows)."""
    xs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    y = fn(*xs)
    if not isinstance(y, torch.Tensor):
        raise TypeError(f"expected your function to return a tensor, got {type(y).__name__}")
    diff = [x for x in xs if x.requires_grad]
    grads = torch.autograd.grad(y, diff, v.to(y.dtype), allow_unused=True) if y.requires_grad else [None] * len(diff)
    it = iter(grads)
    return {"out": y.detach(), "grads": [next(it) if x.requires_grad else None for x in xs]}


def directional(fn, inputs, dirs, eps: float, order: int = 1, seed: int = 0):
    """Data for ``checks.gradcheck_directional``: per direction, numeric vs analytic directional derivatives."""
    gen = torch.Generator().manual_seed(seed)

    out = []
    base = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    y0 = fn(*base)
    if not isinstance(y0, torch.Tensor):
        raise TypeError(f"expected your function to return a tensor, got {type(y0).__name__}")
    for us in dirs:
        try:
            v = torch.randn(y0.shape, generator=gen, dtype=torch.float64)
            if order == 1:
                g = _vjp_list(fn, base, v, create_graph=False)
                analytic = _flat_dot(g, us)
                plus = fn(*_shift(inputs, us, eps)).detach()
                minus = fn(*_shift(inputs, us, -eps)).detach()
                numeric = float(((plus - minus) / (2 * eps) * v).sum())
            else:
                w = [torch.randn(x.shape, generator=gen, dtype=torch.float64) if x.requires_grad else None
                     for x in inputs]
                xs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
                g = _vjp_list(fn, xs, v, create_graph=True)
                s = sum((gi * wi).sum() for gi, wi in zip(g, w) if gi is not None and wi is not None)
                diff = [x for x in xs if x.requires_grad]
                if not isinstance(s, torch.Tensor) or not s.requires_grad:
                    raise RuntimeError("your backward is not differentiable (no graph was built through it)")
                h = torch.autograd.grad(s, diff, allow_unused=True)
                it = iter(h)
                h_all = [next(it) if x.requires_grad else None for x in xs]
                analytic = _flat_dot(h_all, us)
                gp = _vjp_list(fn, _shift(inputs, us, eps), v, create_graph=False)
                gm = _vjp_list(fn, _shift(inputs, us, -eps), v, create_graph=False)
                numeric = sum(float(((a - b) / (2 * eps) * wi).sum())
                              for a, b, wi in zip(gp, gm, w) if a is not None and wi is not None)
            out.append({"numeric": numeric, "analytic": analytic, "error": ""})
        except Exception as exc:
            out.append({"numeric": float("nan"), "analytic": float("nan"),
                        "error": f"{type(exc).__name__}: {str(exc)[:300]}"})
    return out


def _shift(inputs, us, eps):
    return [(x.detach() + eps * u if u is not None else x.detach()).clone().requires_grad_(x.requires_grad)
            for x, u in zip(inputs, us)]


def _vjp_list(fn, xs, v, create_graph):
    xs = [x if x.requires_grad or not isinstance(x, torch.Tensor) else x for x in xs]
    y = fn(*xs)
    diff = [x for x in xs if x.requires_grad]
    grads = torch.autograd.grad(y, diff, v.to(y.dtype), allow_unused=True, create_graph=create_graph)
    it = iter(grads)
    out = []
    for x in xs:
        if x.requires_grad:
            g = next(it)
            out.append(torch.zeros_like(x) if g is None else g)
        else:
            out.append(None)
    return out
