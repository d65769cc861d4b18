"""Hidden checks of stable_logaddexp (exercise 1), compared with torch.logaddexp."""
import pytest
import torch

from course.judge.expect import expect, expect_close, expect_equal

pytestmark = pytest.mark.task("logaddexp")
f64 = torch.float64
SHAPES = [((5,), (5,)), ((3, 1), (4,)), ((2, 3, 4), (3, 1)), ((), (2, 3))]


def value(student, a, b, what):
    out = student.call("logaddexp_value", a=a, b=b)
    expect(isinstance(out, torch.Tensor), f"{what} returned {out}, not a tensor")
    return out


@pytest.mark.parametrize("sa,sb", SHAPES, ids=[f"{a}x{b}" for a, b in SHAPES])
def test_matches_torch(student, gen, sa, sb):
    """values match torch.logaddexp, with broadcasting"""
    a, b = torch.randn(sa, generator=gen, dtype=f64) * 3, torch.randn(sb, generator=gen, dtype=f64) * 3
    what = f"stable_logaddexp(a, b) for a {tuple(sa)}, b {tuple(sb)}"
    out = value(student, a, b, what)
    expect_equal(tuple(out.shape), tuple(torch.broadcast_shapes(sa, sb)), f"the shape of {what}")
    expect_close(out, torch.logaddexp(a, b), what, atol=1e-10, rtol=1e-10)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_keeps_dtype(student, gen, dtype):
    """the result has the inputs' dtype (and their values)"""
    a, b = torch.randn(4, generator=gen, dtype=dtype), torch.randn(4, generator=gen, dtype=dtype)
    what = f"stable_logaddexp(a, b) for {dtype} a and b of shape (4,)"
    out = value(student, a, b, what)
    expect_equal(out.dtype, dtype, f"the dtype of {what}")
    expect_close(out, torch.logaddexp(a, b), what, atol=1e-5, rtol=1e-5)  # the right values, too


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_extreme_values(student, gen, dtype):
    """finite and accurate for inputs up to +-1000, where exp overflows, and for ties"""
    a = torch.tensor([1000.0, -1000.0, 1000.0, 800.0, -5.0, 0.0], dtype=dtype)
    b = torch.tensor([999.0, -1000.0, -1000.0, 800.0, 1000.0, 0.0], dtype=dtype)
    what = f"stable_logaddexp(a, b) for {dtype} a = {a.tolist()}, b = {b.tolist()}"
    out = value(student, a, b, what)
    expect(bool(torch.isfinite(out).all()), f"{what} is not finite: {out.tolist()}")
    expect_close(out.to(f64), torch.logaddexp(a.to(f64), b.to(f64)), what, atol=1e-4, rtol=1e-6)


@pytest.mark.parametrize("sa,sb", SHAPES[1:3], ids=[f"{a}x{b}" for a, b in SHAPES[1:3]])
def test_gradients(student, gen, sa, sb):
    """gradients with respect to both inputs match those of torch.logaddexp"""
    a, b = torch.randn(sa, generator=gen, dtype=f64) * 3, torch.randn(sb, generator=gen, dtype=f64) * 3
    v = torch.randn(torch.broadcast_shapes(sa, sb), generator=gen, dtype=f64)
    what = f"the gradients of <v, stable_logaddexp(a, b)> for a {tuple(sa)}, b {tuple(sb)}"
    res = student.call("logaddexp_vjp", a=a, b=b, v=v)
    expect(res["ga"] is not None and res["gb"] is not None,
           f"{what}: the output is not differentiable with respect to both inputs (no graph, or wrong shape)")
    ar, br = a.clone().requires_grad_(True), b.clone().requires_grad_(True)
    ga, gb = torch.autograd.grad(torch.logaddexp(ar, br), (ar, br), v)
    expect_close(res["ga"], ga, f"{what}, with respect to a", atol=1e-10, rtol=1e-8)
    expect_close(res["gb"], gb, f"{what}, with respect to b", atol=1e-10, rtol=1e-8)
