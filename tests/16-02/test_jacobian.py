"""Hidden checks of jacobian (exercise 3), against torch.autograd.functional.jacobian on the judge's own function,
with a record (made by the judge's custom Function inside it, in the worker) of which mode ran."""
import math

import pytest
import torch

from course.judge.expect import expect, expect_close, expect_equal
from course.judge.probelib import changes
from course.judge.strategies import relayout

pytestmark = pytest.mark.task("jacobian")
f64 = torch.float64
TOL = {"atol": 1e-10, "rtol": 1e-8}


def twin(W, b, out_shape):
    """The judge's twin of the probe's function: (tanh(W x + b)) ** 3 reshaped, plus 0.5 * sum(x)."""
    return lambda x: (torch.tanh(W @ x.reshape(-1) + b) ** 3).reshape(out_shape) + x.sum() * 0.5


CASES = [  # x shape, output shape: tall (forward), wide (reverse), ties (reverse)
    ((3,), (7,)), ((2,), (2, 3)), ((), (4,)),
    ((6,), (2,)), ((2, 3), ()), ((5,), (1,)),
    ((4,), (4,)), ((2, 2), (4,)), ((), ()),
]


def noncontiguous(x):
    """x in a layout .view(-1) cannot flatten: transposed where it can be, else every other element (0-dim x stays)."""
    layout = "transposed" if x.dim() >= 2 and min(x.shape[-2:]) > 1 else "strided"
    return layout, relayout(x, layout)


def mode_of(x_shape, out_shape):
    return "jacfwd" if math.prod(x_shape) < math.prod(out_shape) else "jacrev"


@pytest.mark.parametrize("x_shape,out_shape", CASES, ids=[f"x{a}-out{b}" for a, b in CASES])
def test_matches_torch(student, gen, x_shape, out_shape):
    """the Jacobian has shape f(x).shape + x.shape and PyTorch's values, for 0-dim inputs and outputs too, x
    non-contiguous (transposed or strided, as any tensor of its shape may be)"""
    n, m = math.prod(x_shape), math.prod(out_shape)
    x = torch.randn(x_shape, generator=gen, dtype=f64)
    W, b = torch.randn(m, n, generator=gen, dtype=f64), torch.randn(m, generator=gen, dtype=f64)
    layout, x = noncontiguous(x)
    what = f"jacobian(f, x) for x of shape {x_shape}" + (f" ({layout}, strides {x.stride()})" if x.dim() else "") + \
        f" and f(x) of shape {out_shape}"
    res = student.call("jacobian", x=x, W=W, b=b, out_shape=list(out_shape))
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(isinstance(res["out"], torch.Tensor), f"{what} returned {res['out']}, not a tensor")
    expect_equal(tuple(res["out"].shape), out_shape + x_shape, f"the shape of {what}")
    want = torch.autograd.functional.jacobian(twin(W, b, out_shape), x)
    expect_close(res["out"], want, what, **TOL)


@pytest.mark.parametrize("x_shape,out_shape", [((3,), (5,)), ((4,), (2,))], ids=["tall", "wide"])
def test_float32(student, gen, x_shape, out_shape):
    """float32 x gives a float32 Jacobian, as torch.autograd.functional.jacobian does (not float64)"""
    n, m = math.prod(x_shape), math.prod(out_shape)
    x = torch.randn(x_shape, generator=gen, dtype=torch.float32)
    W, b = torch.randn(m, n, generator=gen, dtype=torch.float32), torch.randn(m, generator=gen, dtype=torch.float32)
    what = f"jacobian(f, x) for float32 x of shape {x_shape} and f(x) of shape {out_shape}"
    res = student.call("jacobian", x=x, W=W, b=b, out_shape=list(out_shape))
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(isinstance(res["out"], torch.Tensor), f"{what} returned {res['out']}, not a tensor")
    want = torch.autograd.functional.jacobian(twin(W, b, out_shape), x)
    expect_equal(res["out"].dtype, want.dtype, f"the dtype of {what} (that of torch.autograd.functional.jacobian)")
    expect_close(res["out"].double(), want.double(), what, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("x_shape,out_shape", CASES, ids=[f"x{a}-out{b}" for a, b in CASES])
def test_cheaper_mode(student, gen, x_shape, out_shape):
    """forward mode (jacfwd: jvp formulas) when x has fewer elements than f(x), reverse mode (jacrev: backward
    formulas) otherwise, ties included; grad mode and the other global settings are as they were afterwards, also
    when jacobian is called under torch.no_grad(); a call of f outside the transforms (the size probe) gets x
    itself"""
    n, m = math.prod(x_shape), math.prod(out_shape)
    x = torch.randn(x_shape, generator=gen, dtype=f64)
    W, b = torch.randn(m, n, generator=gen, dtype=f64), torch.randn(m, generator=gen, dtype=f64)
    grad_enabled = (x_shape, out_shape) not in (((3,), (7,)), ((6,), (2,)))  # one forward, one reverse under no_grad
    res = student.call("jacobian", x=x, W=W, b=b, out_shape=list(out_shape), grad_enabled=grad_enabled)
    what = f"jacobian(f, x) for x of {n} element(s) and f(x) of {m}" + ("" if grad_enabled else
                                                                        ", called under torch.no_grad()")
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_equal(res["before"]["grad mode (torch.is_grad_enabled())"], grad_enabled,
                 f"grad mode when {what} was called")
    left = changes(res["before"], res["after"])
    expect(not left, f"{what} left global settings changed (clause: you may call f once more to learn the size of "
           f"its output, leaving grad mode and every other global setting as it was): {'; '.join(left)}")
    want, formula = ("forward mode (jacfwd)", "jvp") if mode_of(x_shape, out_shape) == "jacfwd" else \
        ("reverse mode (jacrev)", "backward")
    expect(res["calls"] == [formula], f"{what} should use {want}: the judge's custom Function inside f ran "
           f"{res['calls'] or 'neither formula'}, expected its {formula} alone")
    transform = "Jvp" if formula == "jvp" else "Grad"
    expect(any(transform in t for t in res["transforms"]), f"{what}: no call of f ran under torch.func's "
           f"{transform} transform (the calls of f ran under {res['transforms']}; {want} runs f under "
           f"{'Vmap and Jvp' if formula == 'jvp' else 'Grad'}): clause: write jacobian with torch.func.jacfwd and "
           f"torch.func.jacrev (torch.autograd.functional.jacobian batches with another vmap, not torch.func's)")
    expect(res["f_calls"] <= 2, f"{what} called f {res['f_calls']} times: once under {want} and at most once "
           f"more to learn the size of its output")
    expect(all(res["probe_on_x"]), f"{what}: f was called outside torch.func's transforms on an input that is not "
           f"x (per such call, whether it got x itself: {res['probe_on_x']}); f is only known to work at x (clause: "
           f"you may call f once more, on x itself, to learn the size of its output: not on zeros, ones or another "
           f"stand-in, where f may raise or differ)")
    expect_close(res["out"], torch.autograd.functional.jacobian(twin(W, b, out_shape), x), what, **TOL)


def outer_twin(c):
    """The judge's twin of the probe's _outer(c): cube(tanh(c * outer(x, x))) + 0.5 sum(x), x flattened."""
    return lambda x: torch.tanh(torch.outer(x.reshape(-1), x.reshape(-1)) * c) ** 3 + x.sum() * 0.5


def test_one_f_for_inputs_of_two_sizes(student, gen):
    """one f object, called on x of 1 element (1 output: a tie, reverse mode) and then on x of 3 elements (9
    outputs: forward mode): each call picks its mode from its own x and f(x) (nothing kept from an earlier call)"""
    c = float(torch.rand((), generator=gen, dtype=f64)) + 0.5
    xs = [torch.randn(1, generator=gen, dtype=f64), torch.randn(3, generator=gen, dtype=f64)]
    res = student.call("jacobian_same_f", xs=xs, c=c)
    expect(isinstance(res, list) and len(res) == 2, f"jacobian_same_f sent {type(res).__name__} for 2 calls")
    for i, (r, x) in enumerate(zip(res, xs)):
        n = x.numel()
        what = f"call {i + 1} of jacobian(f, x) with one f, f(x) = cube(tanh({c:.3f} * outer(x, x))) + 0.5 sum(x) " \
               f"(n * n outputs), x of {n} element(s) (the calls before it: x of {[t.numel() for t in xs[:i]]} " \
               f"element(s))"
        expect("error" not in r, f"{what} raised {r.get('error')}")
        want, formula = ("forward mode (jacfwd)", "jvp") if n < n * n else ("reverse mode (jacrev)", "backward")
        expect(r["calls"] == [formula], f"{what} should use {want} ({n} input(s), {n * n} output(s)): the judge's "
               f"custom Function inside f ran {r['calls'] or 'neither formula'}, expected its {formula} alone "
               f"(clause: forward mode when x has fewer elements than f(x), reverse otherwise: the output's size "
               f"at this x, not one remembered for f)")
        expect_close(r["out"], torch.autograd.functional.jacobian(outer_twin(c), x), what, **TOL)


@pytest.mark.parametrize("raised", ["KeyError", "Interrupted"], ids=["error", "interrupt"])
def test_settings_restored_when_f_raises(student, gen, raised):
    """when f raises, grad mode and every other global setting are as they were afterwards (the size probe's
    torch.no_grad() left with the exception too), also for an exception that is not an Exception (as
    KeyboardInterrupt: `except Exception:` does not see it)"""
    x = torch.randn(3, generator=gen, dtype=f64)
    what = f"jacobian(f, x) for an f that raises {raised}" + (
        " (a BaseException that is not an Exception, as KeyboardInterrupt when the user stops a long f)"
        if raised == "Interrupted" else "") + ", called with grad mode on"
    res = student.call("jacobian_raises", x=x, interrupt=raised == "Interrupted")
    expect(res["raised"] is not None, f"{what} returned instead of raising")
    left = changes(res["before"], res["after"])
    expect(not left, f"{what} (it raised {res['raised']}) left global settings changed (clause: leaving grad mode "
           f"and every other global setting as it was, also when f raises: use `with torch.no_grad():`, or put "
           f"the mode back in `finally`): {'; '.join(left)}")


def test_on_the_inputs_device(student, gen):
    """the Jacobian lies on x's device (meta standing in for cuda) in both modes, f's own tensors there too"""
    cases = []
    for x_shape, out_shape in (((2,), (5,)), ((4,), (3,))):  # forward mode, reverse mode
        n, m = math.prod(x_shape), math.prod(out_shape)
        cases.append((torch.randn(x_shape, generator=gen, dtype=f64), torch.randn(m, n, generator=gen, dtype=f64),
                      torch.randn(m, generator=gen, dtype=f64), list(out_shape)))
    res = student.call("jacobian_devices", cases=cases)
    expect(isinstance(res, list) and len(res) == len(cases), f"jacobian_devices sent {type(res).__name__} "
           f"{len(res) if isinstance(res, list) else ''} results for {len(cases)} calls")
    for r, (x, _, _, out_shape) in zip(res, cases):
        what = f"jacobian(f, x) for x of shape {tuple(x.shape)} and f(x) of shape {tuple(out_shape)}, x and f's " \
               f"own tensors on another device than the default (meta, a stand-in for cuda)"
        expect("error" not in r, f"{what} raised {r.get('error')} (f runs on x's device: learn the size of its "
               f"output from f(x) itself)")
        expect_equal(r["device"], "meta", f"the device of {what} (a tensor made without device= lands on the CPU "
                     f"while x is on the GPU)")
        expect_equal((r["shape"], r["dtype"]), (tuple(out_shape) + tuple(x.shape), f64), f"the shape and dtype of {what}")
