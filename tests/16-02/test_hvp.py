"""Hidden checks of hvp (exercise 4), against torch.autograd.functional.hessian on the judge's own function, with a
record (made in the worker) of which derivative formulas ran and of the largest tensor any operation made."""
import pytest
import torch

from course.judge.expect import expect, expect_close, expect_equal
from course.judge.strategies import relayout

pytestmark = pytest.mark.task("hvp")
f64 = torch.float64
TOL = {"atol": 1e-10, "rtol": 1e-8}


def twin(A, c):
    """The judge's twin of the probe's function: sum(c * sin(A x) ** 3) + 0.25 |x|^2."""
    return lambda x: (torch.sin(A @ x.reshape(-1)) ** 3 * c).sum() + (x * x).sum() * 0.25


def case(gen, shape, m, dtype=f64):
    n = torch.Size(shape).numel()
    x, v = torch.randn(shape, generator=gen, dtype=dtype), torch.randn(shape, generator=gen, dtype=dtype)
    A, c = torch.randn(m, n, generator=gen, dtype=dtype), torch.randn(m, generator=gen, dtype=dtype)
    return x, v, A, c


def run(student, what, x, v, A, c):
    res = student.call("hvp", x=x, v=v, A=A, c=c)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    foreign = res.get("foreign")
    expect(isinstance(foreign, list) and all(isinstance(op, str) for op in foreign),
           f"{what}: the probe's list of operations of other registries came back as {type(foreign).__name__}")
    expect(not foreign, f"{what} ran {', '.join(foreign[:3])}, an operator of its own registry (torch.library) whose "
           f"inside no check sees (what it computes, the Hessian included, is out of every op log): compute H v "
           f"with PyTorch's own operations (jvp of grad(f))")
    expect(isinstance(res["out"], torch.Tensor), f"{what} returned {res['out']}, not a tensor")
    return res


@pytest.mark.parametrize("shape", [(5,), (2, 3), (), (1,)], ids=str)
def test_matches_hessian_product(student, gen, shape):
    """H v with x's shape equals torch.autograd.functional.hessian(f, x) times v, for 0-dim x too, x and v
    non-contiguous (transposed or strided, as any tensor of their shape may be); at every shape, 0-dim included,
    computed as jvp of grad(f) (the judge's custom Function runs its jvp over its backward)"""
    x, v, A, c = case(gen, shape, 4)
    x = relayout(x, "transposed" if len(shape) >= 2 else "strided")
    v = relayout(v, "strided")
    what = f"hvp(f, x, v) for x, v of shape {shape}" + (f" (x strides {x.stride()}, v strides {v.stride()}: "
                                                       f"not contiguous)" if shape else "")
    res = run(student, what, x, v, A, c)
    n = x.numel()
    want = (torch.autograd.functional.hessian(twin(A, c), x).reshape(n, n) @ v.reshape(n)).reshape(shape)
    expect_equal(tuple(res["out"].shape), shape, f"the shape of {what}")
    expect_close(res["out"], want, what, **TOL)
    expect(res["calls"] == ["backward", "jvp"] and res["backward_under_jvp"], f"{what}: the judge's custom "
           f"Function inside f ran {res['calls'] or 'no formula'}" + ("" if res["backward_under_jvp"] else
                                                                      ", its backward with no forward-mode pass open "
                                                                      "over it") +
           f"; forward-over-reverse (jvp of grad(f)) runs its backward under its jvp, for every shape of x (clause: "
           f"compute it as a forward-mode derivative of the gradient; a 0-dim x is no exception: grad(grad(f)) is "
           f"reverse over reverse)")


@pytest.mark.parametrize("shape", [(4,), ()], ids=str)
def test_zero_direction(student, gen, shape):
    """a zero v gives H v = 0 exactly (no NaN), for 0-dim x too, v an expanded (stride-0) tensor of zeros"""
    x, _, A, c = case(gen, shape, 3)
    v = relayout(torch.zeros(shape, dtype=f64), "broadcast")
    what = f"hvp(f, x, v) for x of shape {shape} and v = zeros" + (f" (expanded, strides {v.stride()})" if shape else "")
    res = run(student, what, x, v, A, c)
    n = x.numel()
    want = (torch.autograd.functional.hessian(twin(A, c), x).reshape(n, n) @ v.reshape(n)).reshape(shape)
    expect_equal(tuple(res["out"].shape), shape, f"the shape of {what}")
    expect_close(res["out"], want, what + " (H 0 = 0)", atol=0, rtol=0)


def test_float32(student, gen):
    """float32 x and v give a float32 result"""
    x, v, A, c = case(gen, (3,), 2, torch.float32)
    what = "hvp(f, x, v) for float32 x, v of shape (3,)"
    res = run(student, what, x, v, A, c)
    want = torch.autograd.functional.hessian(twin(A.double(), c.double()), x.double()) @ v.double()
    expect_equal(res["out"].dtype, torch.float32, f"the dtype of {what}")
    expect_close(res["out"].double(), want, what, atol=1e-4, rtol=1e-4)


def test_forward_over_reverse(student, gen):
    """computed as jvp of grad(f): the judge's custom Function inside f runs its jvp (forward mode) and its
    backward (the reverse pass being differentiated), the backward while forward mode is open over it"""
    x, v, A, c = case(gen, (4,), 3)
    what = "hvp(f, x, v) for x of shape (4,)"
    res = run(student, what, x, v, A, c)
    expect(res["calls"] == ["backward", "jvp"], f"{what}: the judge's custom Function inside f ran "
           f"{res['calls'] or 'no formula'}; forward-over-reverse runs its backward (inside grad) and its jvp "
           f"(the forward-mode pass over it); reverse-over-reverse never runs jvp")
    expect(res["backward_under_jvp"], f"{what}: the judge's custom Function's backward ran with no forward-mode pass "
           f"open over it (reverse over forward, e.g. grad of a jvp); forward over reverse differentiates the "
           f"gradient in forward mode: jvp(grad(f), (x,), (v,))")
    expect_close(res["out"], torch.autograd.functional.hessian(twin(A, c), x) @ v, what, **TOL)


@pytest.mark.parametrize("n,m", [(2, 1), (48, 6)], ids=["n=2", "n=48"])
def test_never_forms_the_hessian(student, gen, n, m):
    """no tensor with n * n or more elements is made, for x of n elements, small n included"""
    x, v, A, c = case(gen, (n,), m)  # A is (m, n) with m < n: the judge's own tensors stay below n * n
    what = f"hvp(f, x, v) for x of {n} elements"
    res = run(student, what, x, v, A, c)
    expect(res["largest"] < n * n, f"{what} made a tensor of {res['largest']} elements, at least n * n = {n * n}: "
           f"the Hessian was formed; use jvp of grad(f)")
    n_ = x.numel()
    want = torch.autograd.functional.hessian(twin(A, c), x).reshape(n_, n_) @ v
    expect_close(res["out"], want, what, **TOL)


def test_on_the_inputs_device(student, gen):
    """H v lies on x's device (meta standing in for cuda), for a random v and for a zero v (no shortcut that makes
    zeros without device=)"""
    x, v, A, c = case(gen, (4,), 3)
    vs = [v, relayout(torch.zeros(4, dtype=f64), "broadcast")]
    res = student.call("hvp_devices", x=x, vs=vs, A=A, c=c)
    expect(isinstance(res, list) and len(res) == len(vs), f"hvp_devices sent {type(res).__name__} "
           f"{len(res) if isinstance(res, list) else ''} results for {len(vs)} calls")
    want = [torch.autograd.functional.hessian(twin(A, c), x) @ vi for vi in vs]
    for r, vi, w in zip(res, ("a random v", "v = zeros (expanded)"), want):
        what = f"hvp(f, x, v) for x of shape (4,) and {vi}, with x, v and f's own tensors on another device than " \
               f"the default (meta, a stand-in for cuda)"
        expect("error" not in r, f"{what} raised {r.get('error')}")
        expect_equal(r["device"], "meta", f"the device of {what} (H v is made where x is: a tensor made without "
                     f"device= lands on the default device, the CPU, while x is on the GPU)")
        expect_equal((r["shape"], r["dtype"]), ((4,), f64), f"the shape and dtype of {what}")
        if r["out"] is not None:  # the inputs were on the CPU (the code needed values), the default device meta
            expect_close(r["out"], w, what, **TOL)


@pytest.mark.parametrize("shape", [(4,), ()], ids=str)
def test_constant_gradient(student, gen, shape):
    """an f whose gradient does not depend on x (f linear: H = 0) gives H v = 0, a tensor of x's shape, not None
    (there grad(f) carries no tangent: forward_ad's unpack_dual gives None, torch.func.jvp zeros)"""
    x, v, A, c = case(gen, shape, 3)
    what = f"hvp(f, x, v) for x, v of shape {shape} and f(x) = <c, A x> (linear: its Hessian is 0)"
    res = student.call("hvp", x=x, v=v, A=A, c=c, linear=True)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(isinstance(res["out"], torch.Tensor), f"{what} returned {res['out']}, not a tensor (H v = 0 is a tensor "
           f"of zeros of x's shape)")
    n = x.numel()
    twin_linear = lambda x: ((A @ x.reshape(-1)) * c).sum()  # noqa: E731 - the probe's _linear
    want = (torch.autograd.functional.hessian(twin_linear, x).reshape(n, n) @ v.reshape(n)).reshape(shape)
    expect_equal((tuple(res["out"].shape), res["out"].dtype), (shape, f64), f"the shape and dtype of {what}")
    expect_close(res["out"], want, what + " (H = 0)", atol=0, rtol=0)


@pytest.mark.parametrize("scale", [1e-170, 1e160], ids=["tiny", "huge"])
def test_tiny_and_huge_directions(student, gen, scale):
    """H v for a v of tiny or huge entries (float64, 1e-170 or 1e160: ordinary numbers of the dtype, whose squares
    under- or overflow) is H v, not 0 or NaN: H v is linear in v, nothing squares it"""
    x, v, A, c = case(gen, (3,), 2)
    v = v * scale
    what = f"hvp(f, x, v) for x, v of shape (3,) and v's entries about {scale:g} (float64)"
    res = run(student, what, x, v, A, c)
    want = torch.autograd.functional.hessian(twin(A, c), x) @ v
    expect_equal(tuple(res["out"].shape), (3,), f"the shape of {what}")
    expect_close(res["out"] / scale, want / scale, what + f" (both divided by {scale:g})", **TOL)


@pytest.mark.parametrize("shape", [(0,), (2, 0)], ids=str)
def test_empty_x(student, gen, shape):
    """an empty x (any shape allows it) gives an empty H v of x's shape and dtype, without an error"""
    x, v, A, c = case(gen, shape, 2)
    what = f"hvp(f, x, v) for an empty x and v of shape {shape}"
    res = run(student, what, x, v, A, c)
    expect_equal((tuple(res["out"].shape), res["out"].dtype), (shape, f64), f"the shape and dtype of {what}")
