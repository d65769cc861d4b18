"""Assertions for hidden tests, with messages a student can act on (judge side).

Every failure names what was checked (``what``, in terms of the student's
function), what was expected and what came back; nothing quotes test code.
Tolerances are explicit at each call site.
"""
from __future__ import annotations

import builtins
import gc
import math
import types
from collections import deque

import torch


class CheckFailed(AssertionError):
    pass


def fail(msg: str):
    raise CheckFailed(msg)


# ------------------------------------------------------------------ reply lists (red team 14)
# The lists a worker's replies carry, and the ``zip`` the hidden checks use.
#
# A reply is the submission's to choose, its lengths included: a worker can send the probe's real reply with a
# list cut short. ``zip`` stops at its shortest argument, so a check that zips the judge's expected values with a
# reply list (``for want, got in zip(cases, res)``) checked nothing past the reply's end, and an empty list
# passed it whole (15-01's ``two_nodes_vjp`` answered ``[]``: a known-wrong ScaledMul kept all 21 checks of its
# task). Every list and tuple of a reply is remembered here (``remember_reply``, by the adapter, until the check ends:
# ``forget_replies``), and the hidden checks' modules get ``zip`` below in place of the builtin (the judge's plugin
# installs it): where one of its arguments is a reply's own list and shorter than every argument of the judge's
# own, the check fails instead of comparing less. A zip of a reply with a slice or copy of it is not affected, nor ``strict=``.
# Red team 15: not only lists and tuples. A reply may put any other value where the probe sends a list, and an empty
# dict, set, string, bytes or tensor (or a dict's ``.values()``) stopped the zip as well (15-04's EMA history sent
# as ``{}``: a known-wrong EMA kept 17 of 17 checks of its task, 15 before); every container of a reply is remembered.
_SEQS: dict[int, object] = {}   # id -> the reply's container itself (kept alive, so no id is reused)
_CONTAINERS = (list, tuple, dict, set, frozenset, str, bytes, bytearray, torch.Tensor)
_VIEWS = (type({}.keys()), type({}.values()), type({}.items()))
_HELD: deque = deque()          # (frame bytes, ids) per reply remembered, oldest first
_LIMIT = 200_000                # values walked per reply (a reply holds at most 100,000: course.wire, plain)
# Remembering a list keeps its reply alive until the check ends: a check that calls the worker many times (a
# property-based one) would otherwise hold every reply at once in the judge, outside every sandbox's memory cap.
# Past this many bytes of frames, the oldest replies are let go (the newest is always kept).
HELD_BYTES = 64 * 2**20


def remember_reply(value, nbytes: int = 0) -> None:
    """Remember every list and tuple inside ``value`` (a reply of ``nbytes`` frame bytes, after ``plain.check``)
    until ``forget_replies``, or until newer replies hold more than ``HELD_BYTES``."""
    stack, n, ids = [value], 0, []
    while stack and n < _LIMIT:
        v = stack.pop()
        n += 1
        if isinstance(v, _CONTAINERS) and id(v) not in _SEQS:
            _SEQS[id(v)] = v
            ids.append(id(v))
            if isinstance(v, torch.Tensor) and type(v) is not EmptyReply and v.numel() == 0:
                # the operators of an empty reply tensor check their broadcast; an nn.Parameter too (plain data
                # allows one, and its operators are torch's own: an empty one escaped a check on the exact type)
                v.__class__ = EmptyReply
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple, set, frozenset)):
            stack.extend(v)
    _HELD.append((nbytes, ids))
    total = sum(b for b, _ in _HELD)
    while len(_HELD) > 1 and total > HELD_BYTES:
        b, old = _HELD.popleft()
        total -= b
        for i in old:
            _SEQS.pop(i, None)


def forget_replies() -> None:
    _SEQS.clear()
    _HELD.clear()


def is_reply(obj) -> bool:
    if isinstance(obj, _VIEWS):  # keys(), values() or items() of a reply's dict
        obj = next(iter(gc.get_referents(obj.mapping)), None)
    return _SEQS.get(id(obj)) is obj


def _len(obj) -> int | None:
    try:
        return len(obj)
    except TypeError:
        return None


def zip(*iterables, strict: bool = False):  # noqa: A001 (the builtin's name on purpose)
    if not strict and len(iterables) > 1 and _SEQS:
        replies = [a for a in iterables if is_reply(a)]
        if replies:
            # the judge's own sequences may differ in length by design (names for three gradients, two of which
            # the case has): only a reply shorter than every one of them stops the zip before the judge's end
            own = [n for a in iterables if not is_reply(a) for n in (_len(a),) if n is not None]
            lens = [n for a in replies for n in (_len(a),) if n is not None]
            short = min(lens) if lens else None
            if own and short is not None and short < min(own):
                raise CheckFailed(f"a result your code sent back holds {short} entries where the check compares "
                                  f"{min(own)} (one for each case or input it gave)")
    return builtins.zip(*iterables, strict=strict)


# an index or mask is not broadcast against what it indexes: an empty index tensor legitimately selects nothing
_INDEXING = frozenset({torch.Tensor.__getitem__, torch.Tensor.__setitem__, torch.Tensor.index_select,
                       torch.index_select, torch.Tensor.gather, torch.gather, torch.Tensor.take, torch.take})


class EmptyReply(torch.Tensor):
    """An empty tensor of a reply (red team 16: the operator forms of red team 15's broadcast). A reply tensor of
    shape (0, 1, ..., 1) broadcasts against any expected tensor into a result with no values, and ``(got ==
    want).all()``, ``~(got != want).any()``, ``torch.all(got.isnan() == want.isnan())`` of nothing hold: a check that
    compares elementwise without comparing shapes first compared nothing (15-01's Clamp NaN pattern, 16-05's
    fake_quant gradient, each fixed in its check). Python's operators on a tensor cannot be replaced from a module's
    globals, as ``allclose`` is; a subclass's ``__torch_function__`` sees them all, and every tensor computed from
    this one is of this class too. ``remember_reply`` gives the class to the empty tensors of a reply only (the
    only ones a broadcast can shrink: with no 0 in either shape, a broadcast holds at least as many values as each
    side), so no other tensor pays a Python call per operation, and a check never sees the class on a non-empty
    reply. Any torch operation on two or more tensors, one of them of this class, whose broadcast shape holds fewer
    values than one of them fails the check (an empty reply against an empty expected result broadcasts to as many
    values, 0, and passes). Sent back to a worker (pickled, copied), it is a plain tensor again."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        ts = [a for a in (*args, *kwargs.values()) if isinstance(a, torch.Tensor)]
        if len(ts) > 1 and func not in _INDEXING and any(isinstance(t, EmptyReply) for t in ts):
            try:
                shape = torch.broadcast_shapes(*(t.shape for t in ts))
            except RuntimeError:
                shape = None  # no broadcast: the operation's own rules (and its own error)
            n = max(t.numel() for t in ts)
            if shape is not None and shape.numel() < n:
                big = next(t for t in ts if t.numel() == n)
                small = next(t for t in ts if isinstance(t, EmptyReply))
                raise CheckFailed(f"a tensor your code sent back, of shape {tuple(small.shape)}, is compared with "
                                  f"one of {n} values ({func.__name__}), and broadcasting the two leaves "
                                  f"{shape.numel()}: expected a result of shape {tuple(big.shape)}")
        return super().__torch_function__(func, types, args, kwargs)

    def __reduce_ex__(self, proto):
        return self.as_subclass(torch.Tensor).__reduce_ex__(proto)

    def __deepcopy__(self, memo):
        return self.as_subclass(torch.Tensor).__deepcopy__(memo)


def _compared(name: str):
    real = getattr(torch, name)

    def compare(a, b, *args, **kwargs):
        out = real(a, b, *args, **kwargs)
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
            n = max(a.numel(), b.numel())
            got = out.numel() if isinstance(out, torch.Tensor) else torch.broadcast_shapes(a.shape, b.shape).numel()
            if got < n:
                raise CheckFailed(f"a tensor your code sent back (shape {tuple(a.shape)} or {tuple(b.shape)}) is "
                                  f"compared with one of {n} values, and broadcasting the two leaves {got}: "
                                  f"expected a result of shape {tuple((a if a.numel() == n else b).shape)}")
        return out
    compare.__name__ = name
    return compare


class _Torch(types.ModuleType):
    """``torch`` for the hidden checks' modules: ``torch.allclose`` and ``torch.isclose`` fail a comparison whose
    broadcast compares fewer values than one side holds (red team 15: a reply tensor of shape (0, 1, 1) broadcast
    against any expected (n, m) compares nothing, and ``allclose`` of nothing is True: two known-wrong 15-09
    monitors kept 21 of 21 checks of their task, 20 before). Everything else is torch's own."""

    allclose = staticmethod(_compared("allclose"))
    isclose = staticmethod(_compared("isclose"))

    def __getattr__(self, name):
        return getattr(torch, name)


TORCH = _Torch("torch")


def install_zip(module) -> None:
    """Give ``module`` (a hidden check's, or a helper of one) this ``zip``, and ``torch`` with guarded
    ``allclose``/``isclose``."""
    if getattr(module, "zip", None) is not zip:
        module.zip = zip
    if getattr(module, "torch", None) is torch:
        module.torch = TORCH


def _fmt(t, n: int = 6) -> str:
    if isinstance(t, torch.Tensor):
        flat = t.detach().flatten()
        vals = ", ".join(f"{v:.5g}" for v in flat[:n].tolist()) + (", ..." if flat.numel() > n else "")
        return f"tensor of shape {tuple(t.shape)} [{vals}]"
    return repr(t)[:200]


def expect(cond: bool, msg: str) -> None:
    if not cond:
        fail(msg)


def expect_tensor(got, what: str) -> torch.Tensor:
    if not isinstance(got, torch.Tensor):
        fail(f"{what}: expected a tensor, got {type(got).__name__}: {_fmt(got)}")
    return got


def expect_close(got, expected: torch.Tensor, what: str, *, atol: float = 1e-6, rtol: float = 1e-5,
                 check_dtype: bool = False, equal_nan: bool = False) -> None:
    """``got`` must match ``expected`` elementwise within atol + rtol*|expected|."""
    got = expect_tensor(got, what)
    if tuple(got.shape) != tuple(expected.shape):
        fail(f"{what}: expected shape {tuple(expected.shape)}, got {tuple(got.shape)}")
    if check_dtype and got.dtype != expected.dtype:
        fail(f"{what}: expected dtype {expected.dtype}, got {got.dtype}")
    g = got.detach().to("cpu", torch.float64)
    e = expected.detach().to("cpu", torch.float64)
    if not equal_nan:
        bad_nan = torch.isnan(g) & ~torch.isnan(e)
        if bad_nan.any():
            idx = tuple(int(i) for i in bad_nan.nonzero()[0])
            fail(f"{what}: got NaN at index {idx} where {e[idx].item():.6g} was expected "
                 f"(numerically unstable for these inputs?)")
    bad_inf = torch.isinf(g) & ~torch.isinf(e)
    if bad_inf.any():
        idx = tuple(int(i) for i in bad_inf.nonzero()[0])
        fail(f"{what}: got {g[idx].item()} at index {idx} where {e[idx].item():.6g} was expected (overflow?)")
    ok = torch.isclose(g, e, atol=atol, rtol=rtol, equal_nan=True) | (torch.isnan(g) & torch.isnan(e) & equal_nan)
    if not bool(ok.all()):
        diff = (g - e).abs().nan_to_num(0)
        diff[ok] = 0
        idx = tuple(int(i) for i in torch.nonzero(diff == diff.max())[0]) if diff.ndim else ()
        n_bad = int((~ok).sum())
        ev, gv = e[idx].item(), g[idx].item()
        digits = 6 if f"{ev:.6g}" != f"{gv:.6g}" else 17  # equal at 6 digits: show where they part
        note = (f" (your result is {got.dtype}, the expected one {expected.dtype})"
                if got.dtype != expected.dtype else "")
        fail(f"{what}: {n_bad} of {ok.numel()} values differ (tolerance atol={atol:g}, rtol={rtol:g}); "
             f"worst at index {idx}: expected {ev:.{digits}g}, got {gv:.{digits}g}{note}")


def expect_equal(got, expected, what: str) -> None:
    if isinstance(expected, torch.Tensor):
        got = expect_tensor(got, what)
        if got.shape != expected.shape or not torch.equal(got.cpu(), expected.cpu()):
            fail(f"{what}: expected {_fmt(expected)}, got {_fmt(got)}")
    elif got != expected:
        fail(f"{what}: expected {_fmt(expected)}, got {_fmt(got)}")


def expect_none(got, what: str) -> None:
    if got is not None:
        fail(f"{what}: expected None, got {_fmt(got)}")


def expect_raises(result: dict, exc_type: str, what: str, match: str | None = None) -> None:
    """For probes that return ``probelib.capture_error(...)``: the call must have raised ``exc_type``."""
    if not result.get("raised"):
        fail(f"{what}: expected {exc_type} to be raised, but the call returned normally")
    if result["type"] == "NotImplementedError" and exc_type != "NotImplementedError":
        fail(f"{what}: your code raised NotImplementedError (not implemented yet?), expected {exc_type}")
    if result["type"] != exc_type and exc_type not in result.get("mro", []):
        fail(f"{what}: expected {exc_type}, got {result['type']}: {result['message'][:200]}")
    if match is not None and match.lower() not in result["message"].lower():
        fail(f"{what}: expected an error mentioning '{match}', got: {result['message'][:200]}")


# ------------------------------------------------------------------ gradients

def rand_directions(inputs, gen: torch.Generator, k: int):
    """k random direction sets (one tensor per differentiable input), unit-norm overall."""
    out = []
    for _ in range(k):
        us = [torch.randn(x.shape, generator=gen, dtype=torch.float64) if x.requires_grad else None for x in inputs]
        norm = math.sqrt(sum(float((u ** 2).sum()) for u in us if u is not None)) or 1.0
        out.append([u / norm if u is not None else None for u in us])
    return out


def exact_directional(reference, inputs: list, us: list, v_gen: torch.Generator, order: int) -> float:
    """The judge's own value of what ``probelib.directional`` measures along ``us``, by autograd on
    ``reference`` (the function the task specifies), drawing v (and w) exactly as the probe does."""
    xs = [x.detach().clone().to(torch.float64).requires_grad_(x.requires_grad) for x in inputs]
    y = reference(*xs)
    v = torch.randn(y.shape, generator=v_gen, dtype=torch.float64)
    diff = [x for x in xs if x.requires_grad]
    if order == 1:
        g = torch.autograd.grad((y * v).sum(), diff, allow_unused=True)
        return float(sum((gi * u).sum() for gi, u in zip(g, [u for u in us if u is not None]) if gi is not None))
    w = [torch.randn(x.shape, generator=v_gen, dtype=torch.float64) if x.requires_grad else None for x in inputs]
    g = torch.autograd.grad((y * v).sum(), diff, create_graph=True, allow_unused=True)
    s = sum((gi * wi).sum() for gi, wi in zip(g, [wi for wi in w if wi is not None]) if gi is not None)
    h = torch.autograd.grad(s, diff, allow_unused=True)
    return float(sum((hi * u).sum() for hi, u in zip(h, [u for u in us if u is not None]) if hi is not None))


def gradcheck_directional(student, probe: str, inputs: list, what: str, *, gen: torch.Generator,
                          n_dirs: int = 3, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                          order: int = 1, reference=None, **probe_kwargs) -> None:
    """Fast-mode gradcheck computed on the judge's side.

    The probe (``probelib.directional``) returns, for random directions u and
    cotangents v, the submission's outputs at x +/- eps*u and its vector-Jacobian
    products. Here we check v . (f(x+eps u) - f(x-eps u)) / 2eps == sum_i vjp_i . u_i,
    the same identity ``torch.autograd.gradcheck(fast_mode=True)`` uses. With
    ``order=2`` the function checked is x -> vjp(x, v) (double backward).
    """
    dirs = rand_directions(inputs, gen, n_dirs)
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    res = student.call(probe, inputs=inputs, dirs=dirs, eps=eps, order=order, seed=seed, **probe_kwargs)
    label = "second derivative (double backward)" if order == 2 else "gradient"
    if not isinstance(res, list) or len(res) != len(dirs) or not all(isinstance(r, dict) for r in res):
        fail(f"{what}: the check got back something other than one result per direction")
    v_gen = torch.Generator().manual_seed(seed)
    for k, r in enumerate(res):
        # Anchored: where the task fixes the function, the judge computes the right value itself, so
        # a reply cannot pass by making both of its numbers agree.
        want = exact_directional(reference, inputs, dirs[k], v_gen, order) if reference is not None else None
        if r.get("error"):
            fail(f"{what}: computing the {label} failed: {r['error']}")
        numeric = r["numeric"]
        analytic = r["analytic"]
        if not (math.isfinite(numeric) and math.isfinite(analytic)):
            fail(f"{what}: the {label} is not finite (numeric {numeric:.6g}, from your backward {analytic:.6g})")
        if abs(numeric - analytic) > atol + rtol * abs(numeric):
            fail(f"{what}: your backward's {label} disagrees with finite differences of your forward along a "
                 f"random direction: finite differences give {numeric:.6g}, your backward gives {analytic:.6g}")
        if want is not None and abs(want - analytic) > atol + rtol * abs(want):
            fail(f"{what}: your backward's {label} along a random direction is {analytic:.6g}; the function the "
                 f"task specifies has {want:.6g} there")


def jacobian_vs_reference(student, probe: str, inputs: list, reference, what: str, *, gen: torch.Generator,
                          atol: float = 1e-7, rtol: float = 1e-5, **probe_kwargs) -> None:
    """Compare the submission's VJPs with PyTorch's own autograd on a reference function."""
    x_ref = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    y_ref = reference(*x_ref)
    v = torch.randn(y_ref.shape, generator=gen, dtype=y_ref.dtype)
    want = torch.autograd.grad(y_ref, [x for x in x_ref if x.requires_grad], v, allow_unused=True)
    res = student.call(probe, inputs=inputs, v=v, **probe_kwargs)
    if not isinstance(res, dict) or "out" not in res:
        fail(f"{what}: the check got back something other than the output and its gradients")
    expect_close(res["out"], y_ref.detach(), f"{what}, forward output", atol=atol, rtol=rtol)
    # The reply's length is the submission's to choose: zip() stops at the shorter side, so a short list
    # would leave the judge's gradients unchecked (red team 14: "grads": [] passed every gradient here).
    grads = res.get("grads")
    if not isinstance(grads, (list, tuple)) or len(grads) != len(inputs):
        fail(f"{what}: expected one gradient entry per input ({len(inputs)}), got "
             f"{len(grads) if isinstance(grads, (list, tuple)) else type(grads).__name__}")
    got = [g for g, x in zip(grads, inputs) if x.requires_grad]
    for i, (g, w) in enumerate(zip(got, want)):
        if g is None:
            fail(f"{what}: no gradient reached differentiable input {i} (your backward returned None for it)")
        expect_close(g, w if w is not None else torch.zeros_like(inputs[i]),
                     f"{what}, gradient for input {i} of shape {tuple(inputs[i].shape)}", atol=atol, rtol=rtol)
