"""Hidden checks of SiLU (exercise 1), against F.silu and PyTorch's own derivatives of it, with a record (made in
the worker by patching the submission's class) of which formula each mode ran."""
import pytest
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
from torch.func import grad, jacfwd, jacrev, jvp, vmap

from course.judge.expect import expect, expect_close, expect_equal
from course.judge.strategies import relayout

pytestmark = pytest.mark.task("silu")
f64 = torch.float64
TOL = {"atol": 1e-10, "rtol": 1e-8}
SHAPES = [(7,), (3, 4), (2, 1, 3), (), (0, 3)]


def run(student, what, mode, x, **kw):
    res = student.call("silu", mode=mode, x=x, **kw)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    foreign = [op for op in res["ops"] if "::" in op]
    expect(not foreign, f"{what} ran {', '.join(foreign[:3])}, an operator of its own registry (torch.library) whose "
           f"inside no check sees (clause: compute x * sigmoid(x) and f'(x) yourself, from PyTorch's tensor operations)")
    own = [op for op in res["ops"] if op.startswith("silu")]
    expect(not own, f"{what} ran PyTorch's own {own} op (clause: do not call F.silu or nn.SiLU inside SiLU, in "
           f"forward, backward or jvp): compute x * sigmoid(x) and f'(x) yourself")
    expect(isinstance(res["out"], torch.Tensor), f"{what} returned {res['out']}, not a tensor")
    return res


def rand(gen, shape, scale=3.0, dtype=f64):
    return scale * torch.randn(shape, generator=gen, dtype=dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_values(student, gen, shape):
    """SiLU.apply(x) equals F.silu(x) with x's shape, for 0-dim and empty x too (an empty x's gradient and tangent
    empty too), x non-contiguous (transposed or strided), without calling F.silu"""
    x = rand(gen, shape)
    x = relayout(x, "transposed" if x.dim() >= 2 and min(x.shape[-2:]) > 1 else "strided")
    what = f"SiLU.apply(x) for x of shape {shape}" + (f" (strides {x.stride()})" if x.dim() else "")
    res = run(student, what, "value", x)
    expect_equal(tuple(res["out"].shape), shape, f"the shape of {what}")
    expect_close(res["out"], F.silu(x), what, **TOL)
    expect("silu" not in res["ops"], f"{what} ran PyTorch's own silu op: compute x * sigmoid(x) yourself")
    if x.numel() == 0:  # the empty x's gradient and tangent, and a drawn vector beside the empty one
        t = rand(gen, shape, 1.0)
        for mode, how in (("backward", "the gradient of <t, SiLU.apply(x)> (backward)"),
                          ("dual", "the tangent of fwAD.make_dual(x, t) through SiLU.apply (jvp)")):
            w = f"{how} for an empty x of shape {shape}"
            out = run(student, w, mode, x, t=t)["out"]
            expect_equal((tuple(out.shape), out.dtype), (shape, f64), f"the shape and dtype of {w}")
        x = rand(gen, (3,))
        expect_close(run(student, "SiLU.apply(x) for x of shape (3,)", "value", x)["out"], F.silu(x),
                     "SiLU.apply(x) for x of shape (3,)", **TOL)


@pytest.mark.parametrize("dtype", [torch.float32, f64])
def test_dtype_and_extremes(student, gen, dtype):
    """float32 and float64 keep their dtype; values, both derivatives and the second derivative (jvp of grad) are
    finite and right for |x| up to 1000"""
    x = torch.tensor([0.0, -0.0, 1000.0, -1000.0, 88.0, -88.0, 40.0, -40.0, 1e-8], dtype=dtype)
    x = torch.cat([x, rand(gen, (5,), dtype=dtype)])
    t = torch.rand(x.shape, generator=gen, dtype=dtype) + 0.5
    tol = {"atol": 1e-5, "rtol": 1e-5} if dtype == torch.float32 else TOL
    want = torch.func.jvp(F.silu, (x.double(),), (t.double(),))[1]
    second = jvp(grad(lambda xi: F.silu(xi).sum()), (x.double(),), (t.double(),))[1]  # F.silu's H t, diagonal
    for mode, ref in (("value", F.silu(x.double())), ("backward", want), ("dual", want), ("hvp", second)):
        how = {"hvp": "hvp: jvp(grad(SiLU.apply(x).sum()), (x,), (t,)), the second derivative times t"}.get(mode, mode)
        what = f"SiLU ({how}) for {dtype} x = {[round(v, 3) for v in x.tolist()[:9]]} ..."
        out = run(student, what, mode, x, t=t)["out"]
        expect_equal(out.dtype, dtype, f"the dtype of {what}")
        expect(bool(torch.isfinite(out).all()), f"{what} is not finite: {out.tolist()}")
        expect_close(out.double(), ref, what, **tol)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_half_precision_keeps_dtype(student, gen, dtype):
    """float16 and bfloat16 x give a result of x's dtype (not float32) equal to F.silu(x), forward mode a tangent of
    x's dtype equal to F.silu's, and backward F.silu's gradient, on signed zeros and on |x| of 12 and 30 too (past
    11.1, exp(x) is inf in float16, so a sigmoid written e / (1 + e) gives nan there) besides six draws"""
    x = torch.cat([torch.tensor([0.0, -0.0, 12.0, -12.0, 30.0, -30.0], dtype=dtype), rand(gen, (6,), dtype=dtype)])
    xs = [round(v, 3) for v in x.tolist()]
    what = f"SiLU.apply(x) for {dtype} x = {xs}"
    out = run(student, what, "value", x)["out"]
    expect_equal(out.dtype, dtype, f"the dtype of {what} (SiLU.apply returns x * sigmoid(x) with x's dtype, as "
                 f"F.silu(x) does; a sigmoid computed in float32 must be cast back)")
    expect_close(out.double(), F.silu(x).double(), what, atol=2e-2, rtol=2e-2)
    t = (torch.rand(x.shape, generator=gen, dtype=f64) + 0.5).to(dtype)
    what = f"the tangent of fwAD.make_dual(x, t) through SiLU.apply for {dtype} x = {xs} and t in [0.5, 1.5)"
    tangent = run(student, what, "dual", x, t=t)["out"]
    with fwAD.dual_level():
        want = fwAD.unpack_dual(F.silu(fwAD.make_dual(x, t))).tangent
    expect_equal(tangent.dtype, dtype, f"the dtype of {what} (jvp returns t * f'(x), of t's dtype as F.silu's "
                 f"forward mode gives; PyTorch does not cast what a Function's jvp returns, so a slope computed in "
                 f"float32 must be cast back)")
    expect(bool(torch.isfinite(tangent).all()), f"{what} (clause: jvp(ctx, t) returns t * f'(x), finite as F.silu's "
           f"{want.tolist()}): got {tangent.tolist()}")
    expect_close(tangent.double(), want.double(), what + " (clause: jvp(ctx, t) returns t * f'(x))",
                 atol=2e-2, rtol=2e-2)
    what = f"the gradient of <t, SiLU.apply(x)> for {dtype} x = {xs} and t as above (backward)"
    got = run(student, what, "backward", x, t=t)["out"]
    xr = x.clone().requires_grad_(True)
    want = torch.autograd.grad(F.silu(xr), xr, t)[0]
    expect(bool(torch.isfinite(got).all()), f"{what} (clause: backward(ctx, g) returns g * f'(x), finite as "
           f"F.silu's {want.tolist()}): got {got.tolist()}")
    expect_close(got.double(), want.double(), what + " (clause: backward(ctx, g) returns g * f'(x))",
                 atol=2e-2, rtol=2e-2)


def silu_grad(x, g):
    xr = x.clone().requires_grad_(True)
    return torch.autograd.grad(F.silu(xr), xr, g)[0]


@pytest.mark.parametrize("shape", SHAPES[:4], ids=str)
def test_backward(student, gen, shape):
    """backward(ctx, g) returns g * f'(x): the gradient of <g, SiLU.apply(x)> is F.silu's, also for two calls
    whose graphs are alive at once (each backward at its own call's x, from what its own ctx saved)"""
    x, g = rand(gen, shape), rand(gen, shape, 1.0)
    if len(shape) < 2:
        what = f"the gradient of <g, SiLU.apply(x)> for x of shape {shape} (backward)"
        res = run(student, what, "backward", x, t=g)
        expect_close(res["out"], silu_grad(x, g), what, **TOL)
    else:  # two calls, then one backward over both: a formula reading a slot shared by the calls gets one x for both
        x2 = rand(gen, shape)
        what = f"the gradients of <g, SiLU.apply(x1)> + <g, SiLU.apply(x2)> for x1, x2 of shape {shape}, both " \
               f"calls made before one backward over both (backward)"
        res = run(student, what, "backward_pair", x, t=g, w=x2)
        expect_close(res["out"], torch.stack([silu_grad(x, g), silu_grad(x2, g)]), what + " (clause: "
                     "setup_context(ctx, inputs, output) saves what the two formulas need, on that call's ctx; "
                     "backward(ctx, g) returns g * f'(x) at its own call's x)", **TOL)
    expect("backward" in res["calls"], f"{what}: SiLU.backward never ran")


@pytest.mark.parametrize("mode", ["dual", "func_jvp"])
@pytest.mark.parametrize("shape", [(6,), (2, 3), ()], ids=str)
def test_forward_mode(student, gen, mode, shape):
    """forward mode (dual numbers, torch.func.jvp) gives t * f'(x) from jvp, and never runs backward"""
    x, t = rand(gen, shape), rand(gen, shape, 1.0)
    how = "fwAD.make_dual(x, t) through SiLU.apply" if mode == "dual" else "torch.func.jvp(SiLU.apply, (x,), (t,))"
    what = f"the tangent of {how} for x of shape {shape}"
    res = run(student, what, mode, x, t=t)
    with fwAD.dual_level():
        want = fwAD.unpack_dual(F.silu(fwAD.make_dual(x, t))).tangent
    expect_close(res["out"], want, what + " (t * f'(x))", **TOL)
    expect(res["calls"] == ["jvp"], f"{what}: forward mode ran {res['calls'] or 'no formula of SiLU'}; it must run "
           f"SiLU.jvp and never SiLU.backward")


def test_jacobians(student, gen):
    """jacfwd runs jvp, jacrev runs backward, and both give F.silu's Jacobian"""
    x = rand(gen, (5,))
    want = torch.diag(jacrev(F.silu)(x).diagonal())
    for mode, formula in (("jacfwd", "jvp"), ("jacrev", "backward")):
        what = f"{mode}(SiLU.apply)(x) for x of shape (5,)"
        res = run(student, what, mode, x)
        expect_close(res["out"], want, what, **TOL)
        expect(res["calls"] == [formula], f"{what} ran {res['calls']}, expected SiLU.{formula} alone")


@pytest.mark.parametrize("in_dims", [0, 1])
def test_vmap(student, gen, in_dims):
    """SiLU.apply works under vmap (forward without ctx, setup_context, generate_vmap_rule), and vmap of grad"""
    x = rand(gen, (4, 3))
    what = f"vmap(SiLU.apply, in_dims={in_dims}) on x of shape (4, 3)"
    out = run(student, what, "vmap", x, in_dims=in_dims)["out"]
    expect_close(out, F.silu(x if in_dims == 0 else x.T), what, **TOL)
    what = "vmap(grad(lambda xi: (SiLU.apply(xi) * xi).sum())) over the rows of x (4, 3)"
    out = run(student, what, "vmap_grad", x)["out"]
    expect_close(out, vmap(grad(lambda xi: (F.silu(xi) * xi).sum()))(x), what, **TOL)


@pytest.mark.parametrize("mode", ["second", "hvp", "rev_over_fwd"])
def test_second_derivatives(student, gen, mode):
    """backward and jvp are differentiable: double backward, forward-over-reverse and reverse-over-forward through
    SiLU equal F.silu's, at x = +-1000 and +-88 too (finite there, as F.silu's are)"""
    x, t, w = rand(gen, (2, 4)), rand(gen, (2, 4), 1.0), rand(gen, (2, 4), 1.0)
    x[0] = torch.tensor([1000.0, -1000.0, 88.0, -88.0], dtype=f64)  # exp(-x) overflows: a sigmoid written
    # 1 / (1 + exp(-x)) has a first derivative of 0 there but a second of inf / inf = nan
    if mode == "second":
        what = "the gradient of <w, grad(<t, SiLU.apply(x)>, create_graph=True)> (double backward), x of shape (2, 4)"
        xr = x.clone().requires_grad_(True)
        (g1,) = torch.autograd.grad(F.silu(xr), xr, t, create_graph=True)
        want = torch.autograd.grad(g1, xr, w)[0]
    elif mode == "hvp":
        what = "jvp(grad(lambda x: SiLU.apply(x).sum()), (x,), (t,)) (a Hessian-vector product), x of shape (2, 4)"
        want = jvp(grad(lambda xi: F.silu(xi).sum()), (x,), (t,))[1]
    else:
        what = "grad(lambda x: <w, jvp(SiLU.apply, (x,), (t,))[1]>)(x) (reverse mode over the jvp formula), x of shape (2, 4)"
        want = grad(lambda xi: (jvp(F.silu, (xi,), (t,))[1] * w).sum())(x)
    what += ", row 0 of x = [1000, -1000, 88, -88]"
    res = run(student, what, mode, x, t=t, w=w)
    expect(bool(torch.isfinite(res["out"]).all()), f"{what} is not finite: {res['out'].tolist()}, where F.silu's "
           f"is {want.tolist()} (clause: second derivatives through SiLU equal those of F.silu; values and "
           f"derivatives stay finite for inputs as large as +-1000)")
    expect_close(res["out"], want, what + " (backward and jvp must be written from differentiable operations on x: setup_context runs "
                 "without grad, so a value computed there, such as sigmoid(x), is a constant to autograd; "
                 "save x and compute it inside backward)", **TOL)


def test_on_the_inputs_device(student, gen):
    """SiLU.apply(x), its backward and its jvp give tensors on x's device (meta standing in for cuda): nothing made
    without device="""
    x, t = rand(gen, (2, 3)), rand(gen, (2, 3), 1.0)
    what = "SiLU.apply(x), the gradient of <t, SiLU.apply(x)> and the tangent of fwAD.make_dual(x, t) through " \
           "SiLU.apply, for x and t of shape (2, 3) on another device than the default (meta, a stand-in for cuda)"
    res = student.call("silu_devices", x=x, t=t)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect_equal(res["devices"], ["meta"] * 3, f"the devices of {what} (a tensor made without device= lands on "
                 f"the CPU while x is on the GPU)")
