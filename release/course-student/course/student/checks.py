"""Visible checks for the notebooks: each failure says what was called, what was expected and
what came back, and shows only the line of your cell that failed (no library internals).

    expect_close(ScaledMul.apply(x, y, 2.5), 2.5 * x * y, "ScaledMul.apply(x, y, 2.5)")
    expect_equal(clamp_grad, torch.tensor([0., 0., 1., 0., 0.]), "x.grad after Clamp")
    expect(all(len(m._forward_hooks) == 0 for m in net.modules()), "hooks are removed afterwards")
    expect_raises(RuntimeError, lambda: run_broken(x), "run_broken(x)", match="inplace")

Importing this module in a notebook (every setup cell does) also makes IPython show an exercise that is
not written yet, the ``raise NotImplementedError()`` under ``# YOUR CODE HERE``, as one line that names
it ("ScaledMul.forward is not written yet (line 3 of this cell needs it)"), wherever it is called from,
instead of a traceback through its stub. Any other error keeps its full traceback.
"""
from __future__ import annotations

import sys
import traceback

import torch


class CheckFailed(AssertionError):
    """A visible check failed. IPython shows its message and the failing line of your cell only."""

    def _render_traceback_(self):
        where = []
        frames = [f for f in traceback.extract_tb(self.__traceback__)
                  if not f.filename.endswith(("course/student/checks.py", "course\\student\\checks.py"))]
        cell = [f for f in frames if "ipykernel" in f.filename or f.filename.startswith("<")]
        for f in (cell or frames)[-1:]:
            where.append(f"  in your cell, line {f.lineno}: {(f.line or '').strip()}")
        return [f"\x1b[0;31mCheckFailed\x1b[0m: {self}", *where]


def _fail(msg: str):
    exc = CheckFailed(msg)
    exc.__cause__ = None
    exc.__suppress_context__ = True
    raise exc


def expect(condition, what: str) -> None:
    """``condition`` must be true; ``what`` says, in words, what should hold."""
    if not condition:
        _fail(f"expected: {what}")


def _fmt(x) -> str:
    return f"{x:.6g}" if isinstance(x, float) else repr(x)


def expect_close(got, want, what: str, atol: float = 1e-6, rtol: float = 1e-5) -> None:
    """``got`` (a tensor from your code, or a Python number where ``want`` is one) must match ``want``
    elementwise within the tolerances."""
    number = (int, float)
    if isinstance(want, number) and not isinstance(want, bool) and isinstance(got, number) and not isinstance(got, bool):
        got = torch.tensor(float(got), dtype=torch.float64)
    elif not isinstance(got, torch.Tensor):
        _fail(f"{what}: expected {'a number' if isinstance(want, number) else 'a tensor'}, got {type(got).__name__}")
    want = torch.as_tensor(want, dtype=got.dtype if got.is_floating_point() else None)
    if got.shape != want.shape:
        _fail(f"{what}: expected shape {tuple(want.shape)}, got {tuple(got.shape)}")
    g, w = got.detach().cpu().double(), want.detach().cpu().double()
    bad = ~torch.isclose(g, w, atol=atol, rtol=rtol, equal_nan=False)
    if bad.any():
        i = int(bad.flatten().nonzero()[0])
        idx = tuple(int(v) for v in torch.unravel_index(torch.tensor(i), g.shape)) if g.dim() else ()
        _fail(f"{what}: {int(bad.sum())} of {bad.numel()} values differ; at index {idx} expected "
              f"{_fmt(float(w.flatten()[i]))}, got {_fmt(float(g.flatten()[i]))} (atol {atol:g}, rtol {rtol:g})")


def expect_equal(got, want, what: str) -> None:
    """Exact equality: tensors elementwise (same shape), anything else with ``==``."""
    if isinstance(want, torch.Tensor) or isinstance(got, torch.Tensor):
        expect_close(got, want, what, atol=0.0, rtol=0.0)
        return
    if got != want:
        _fail(f"{what}: expected {want!r}, got {got!r}")


def expect_raises(exc_type: type, fn, what: str, match: str | None = None) -> BaseException:
    """Calling ``fn()`` must raise ``exc_type`` (whose message contains ``match``, if given)."""
    try:
        fn()
    except NotImplementedError:
        if exc_type is not NotImplementedError:
            raise  # not written yet (NotImplementedError is a RuntimeError, so test for it first)
        return None
    except exc_type as exc:
        if match is not None and match.lower() not in str(exc).lower():
            _fail(f"{what}: raised {type(exc).__name__} as expected, but its message does not mention "
                  f"{match!r}: {str(exc)[:200]}")
        return exc
    except Exception as exc:
        _fail(f"{what}: expected {exc_type.__name__}, got {type(exc).__name__}: {str(exc)[:200]}")
    _fail(f"{what}: expected {exc_type.__name__} to be raised, but the call returned normally")


def expect_gradcheck(fn, inputs: tuple, what: str, second_order: bool = False) -> None:
    """PyTorch's gradcheck (and gradgradcheck) on float64 ``inputs``, reported in one line."""
    checks = [("gradients", torch.autograd.gradcheck)]
    if second_order:
        checks.append(("second derivatives", torch.autograd.gradgradcheck))
    for label, check in checks:
        try:
            ok = check(fn, inputs, raise_exception=True)
        except NotImplementedError:
            raise
        except Exception as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            _fail(f"{what}: your backward's {label} disagree with finite differences: {first[:300]}")
        if not ok:
            _fail(f"{what}: your backward's {label} disagree with finite differences")


def _not_written_yet(shell, etype, value, tb, tb_offset=None):
    """IPython's handler for NotImplementedError: an exercise's bare stub (raised without a message in a
    notebook cell), or one whose message already says "... is not written yet" (a helper relaying it
    from another process), becomes one line; anything else gets IPython's usual traceback."""
    cells = getattr(shell.compile, "_filename_map", {})  # the file name IPython gives each cell it ran
    frames = list(traceback.walk_tb(tb))
    in_cells = [(f, line) for f, line in frames if f.f_code.co_filename in cells]
    stub = not value.args and in_cells and frames[-1][0] is in_cells[-1][0]
    relayed = len(value.args) == 1 and "is not written yet" in str(value.args[0]) and in_cells
    if not (stub or relayed):
        stb = shell.InteractiveTB.structured_traceback(etype, value, tb, tb_offset=tb_offset)
    else:
        here, line = in_cells[0]
        if stub:
            code = frames[-1][0].f_code
            name = getattr(code, "co_qualname", code.co_name)
            what = "this cell is not written yet" if name == "<module>" else f"{name} is not written yet"
        else:
            what = str(value.args[0])
        where = "" if here is frames[-1][0] else f" (line {line} of this cell needs it)"
        stb = [f"\x1b[0;31mNotImplementedError\x1b[0m: {what}{where}"]
    sys.last_type, sys.last_value, sys.last_traceback = etype, value, tb  # %debug still works
    shell._showtraceback(etype, value, stb)
    return stb


def _install_in_ipython() -> None:
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None and not shell.custom_exceptions:
        shell.set_custom_exc((NotImplementedError,), _not_written_yet)


_install_in_ipython()

__all__ = ["CheckFailed", "expect", "expect_close", "expect_equal", "expect_raises", "expect_gradcheck"]
