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
    when jacobian is called under torch.no_grad()"""
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
    expect(res["f_calls"] <= 2, f"{what} called f {res['f_calls']} times: once under {want} and at most once "
           f"more to learn the size of its output")
    expect_close(res["out"], torch.autograd.functional.jacobian(twin(W, b, out_shape), x), what, **TOL)


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
