"""Hidden checks of smooth_clip's autograd formula (exercise 2): first and second derivatives against autograd
of the judge's own limit * tanh(x / limit), and what the formula saves (recorded by saved-tensor hooks)."""
import pytest
import torch

from course.judge.expect import expect, expect_close, expect_equal

pytestmark = pytest.mark.task("clip_grad")
f64 = torch.float64
OP = "torch.ops.c1601.smooth_clip"
TOL = {torch.float64: {"atol": 1e-11, "rtol": 1e-9}, torch.float32: {"atol": 1e-5, "rtol": 1e-4}}


def limit_from(gen):
    return round(float(torch.empty(()).uniform_(0.3, 6.0, generator=gen)), 3)


def reference_grads(x, limit, v, w=None):
    xr = x.to(f64).clone().requires_grad_(True)
    vr = v.to(f64).clone().requires_grad_(True)
    out = limit * torch.tanh(xr / limit)
    (g,) = torch.autograd.grad(out, xr, vr, create_graph=w is not None)
    if w is None:
        return out.detach(), g
    return torch.autograd.grad(g, (xr, vr), w.to(f64))


def grad_run(student, what, **kw):
    res = student.call("clip_grad", **kw)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    return res


CASES = [((6,), torch.float64, "contiguous"), ((3, 4), torch.float32, "contiguous"), ((4, 5), torch.float64, "transposed"),
         ((2, 3, 4), torch.float64, "strided"), ((), torch.float64, "contiguous")]


@pytest.mark.parametrize("shape,dtype,layout", CASES, ids=[f"{s}-{d}-{l}".replace("torch.", "") for s, d, l in CASES])
def test_gradient(student, gen, shape, dtype, layout):
    """the gradient with respect to x is grad * (1 - (y / limit)**2), that of limit * tanh(x / limit), for float32
    and float64 inputs of any shape and layout; limit gets none; the backward leaves y (the caller's output) as it
    was"""
    limit = limit_from(gen)
    x = (3 * torch.randn(shape, generator=gen, dtype=f64)).to(dtype)
    v = torch.randn(shape, generator=gen, dtype=f64).to(dtype)
    what = f"the gradient of <v, {OP}(x, {limit})> for a {layout} {dtype} x of shape {tuple(shape)}"
    res = grad_run(student, what, x=x, limit=limit, v=v, layout=layout)
    y, g = reference_grads(x, limit, v)
    expect_close(res["grad"], g.to(dtype), what, **TOL[dtype])
    expect_close(res["out"], y.to(dtype), f"the output y of {OP}(x, {limit}) for a {layout} {dtype} x of shape "
                 f"{tuple(shape)}, read after the backward (the backward reads the saved y and leaves it as it was: "
                 f"it is the tensor smooth_clip returned to the caller, not scratch memory; y.div_(limit) in the "
                 f"backward changes it)", **TOL[dtype])


@pytest.mark.parametrize("dtype,limit", [(torch.float64, 1e-200), (torch.float32, 1e-25), (torch.float64, 1e300),
                                         (torch.float32, 1e30), (torch.float64, 1e-310), (torch.float32, 1e-39)],
                         ids=["f64", "f32", "f64-huge", "f32-huge", "f64-subnormal", "f32-subnormal"])
def test_gradient_tiny_limit(student, gen, dtype, limit):
    """for any limit > 0: with a tiny limit (1e-200 in float64, 1e-25 in float32, and subnormal ones, 1e-310 and
    1e-39) or a huge one (1e300, 1e30) the gradient is still that of limit * tanh(x / limit)"""
    # x of the limit's scale, so x / limit is of order 1; limit**2 underflows to 0 there (y**2 / limit**2 is nan),
    # or, for a huge limit, y**2 and limit**2 overflow (inf / inf is nan); for a subnormal limit 1 / limit
    # overflows, so y * (1 / limit) is inf (nan at y = 0) where y / limit is of order 1
    x = (limit * 3 * torch.randn(7, generator=gen, dtype=f64)).to(dtype)
    x[0] = 0.0  # y = 0 there: the derivative is exactly 1
    v = torch.randn(7, generator=gen, dtype=f64).to(dtype)
    what = (f"the gradient of <v, {OP}(x, {limit})> for a {dtype} x of 7 elements of the order of the limit, the "
            f"first 0 (the text: 'any limit > 0 (tiny ones too)')")
    res = grad_run(student, what, x=x, limit=limit, v=v, layout="contiguous")
    _, g = reference_grads(x, limit, v)
    expect(bool(torch.isfinite(res["grad"]).all()), f"{what} is not finite: {res['grad'].tolist()}")
    expect_close(res["grad"], g.to(dtype), what, **TOL[dtype])


@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_saves_only_the_output(student, gen, layout):
    """setup_context saves the output y itself with save_for_backward (not a copy of it), and nothing else (not x),
    for a transposed x too"""
    limit = limit_from(gen)
    x = 3 * torch.randn(4, 5, generator=gen, dtype=f64)
    v = torch.randn(4, 5, generator=gen, dtype=f64)
    what = f"what autograd saved for {OP}(x, {limit}) with {layout} x (4, 5) float64"
    res = grad_run(student, what, x=x, limit=limit, v=v, layout=layout)
    saved = res["saved"]
    expect(not any(s["is_input"] for s in saved), f"{what}: x itself was saved; save the output y instead")
    expect(len(saved) == 1, f"{what}: {len(saved)} tensors were saved with save_for_backward "
           f"({[(s['dtype'], s['shape']) for s in saved]}), expected exactly one, the output y")
    y, _ = reference_grads(x, limit, v)
    expect_close(saved[0]["value"], y, f"{what}: the saved tensor must be the output y", **TOL[f64])
    expect(saved[0]["is_output"], f"{what}: the saved tensor has y's values but not y's memory: a copy of the output "
           f"(y.clone(), y.contiguous() of a transposed y, ...) costs a tensor of y's size until the backward; save "
           f"the output itself")


def test_gradient_on_another_device(student, gen):
    """every tensor the backward creates is on x's device: the forward and backward run off the default device (the
    grader's stand-in for a GPU) and no operator mixes devices"""
    limit = limit_from(gen)
    shape = [int(n) for n in torch.randint(2, 7, (2,), generator=gen)]  # per student: a replay meets another shape
    what = f"the gradient of {OP}(x, {limit}) for float32 x {tuple(shape)} off the default device"
    res = student.call("clip_grad_device", shape=shape, limit=limit)
    expect("error" not in res, f"{what} (the grader's stand-in for a GPU: a tensor made without device= lands on "
           f"another device than x) raised {res.get('error')}: make every tensor of the backward on y's device "
           f"(torch.ones_like(y), device=y.device, or plain numbers such as 1 - ...)")
    home = res["home"]
    where = "the meta device" if home == "meta" else "the CPU, with meta as the default device"
    mixed = {op: d for op, d in res["devices"].items() if d != [home]}
    expect(not mixed, f"{what}, x on {where}: operators got tensors on other devices than x's: {mixed} (on a GPU "
           f"these calls fail: make the backward's tensors with device=y.device)")
    expect(res["grad"] is not None, f"{what}: the output has no grad_fn, so no gradient reaches x")
    expect_equal((res["grad"].get("device"), res["grad"].get("shape")), (home, shape),
                 f"the device and shape of the gradient of {what}, x on {where}")


def test_x_released_before_backward(student, gen):
    """setup_context keeps no reference to x (not on ctx, not in the inputs tuple): once the caller drops x, its
    memory is released before the backward runs"""
    limit = limit_from(gen)
    x = 3 * torch.randn(4, 5, generator=gen, dtype=f64)
    v = torch.randn(4, 5, generator=gen, dtype=f64)
    what = f"{OP}(x, {limit}) with x (4, 5) float64, computed from a leaf, then x dropped before the backward"
    res = student.call("clip_x_released", x=x, limit=limit, v=v)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    expect(res["released"], f"{what}: x's memory was still held after the caller dropped it; setup_context (or the "
           f"backward) keeps a reference to x, e.g. ctx.inputs = inputs or ctx.x = x; keep only limit on ctx and "
           f"save only the output")
    expect_close(res["grad"], reference_grads(x, limit, v)[1], f"the gradient of <v, {what}>", **TOL[f64])


@pytest.mark.parametrize("shape", [(5,), (3, 4)], ids=["(5,)", "(3, 4)"])
def test_second_derivatives(student, gen, shape):
    """the backward is differentiable: second derivatives (in x and in the incoming gradient) are those of
    limit * tanh(x / limit)"""
    limit = limit_from(gen)
    x = 3 * torch.randn(shape, generator=gen, dtype=f64)
    v, w = torch.randn(shape, generator=gen, dtype=f64), torch.randn(shape, generator=gen, dtype=f64)
    what = f"the derivatives of <w, grad_x <v, {OP}(x, {limit})>> for x {shape} float64 (double backward)"
    res = student.call("clip_gradgrad", x=x, limit=limit, v=v, w=w)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    gx, gv = reference_grads(x, limit, v, w)
    expect(res["gx"] is not None, f"{what}: nothing flows back to x (the saved output is detached?)")
    expect_close(res["gx"], gx, what + ", with respect to x", **TOL[f64])
    expect(res["gv"] is not None, f"{what}: nothing flows back to the incoming gradient")
    expect_close(res["gv"], gv, what + ", with respect to the incoming gradient", **TOL[f64])


def test_limit_kept_per_call(student, gen):
    """setup_context keeps each call's limit on its own ctx: two outputs with different limits, built before one
    backward pass, each get the gradient of their own limit"""
    first = limit_from(gen)
    limits = [first, round(first + 1.5, 3)]
    x = 3 * torch.randn(4, 5, generator=gen, dtype=f64)
    v = torch.randn(4, 5, generator=gen, dtype=f64)
    what = f"the gradients of {OP}(x, {limits[0]}) and {OP}(x, {limits[1]}), both built before one backward pass"
    res = student.call("clip_grad_two_limits", x=x, limits=limits, v=v)
    expect("error" not in res, f"{what} raised {res.get('error')}")
    for lim, got in zip(limits, res["grads"]):
        expect_close(got, reference_grads(x, lim, v)[1], f"{what}: the one with limit {lim} (keep limit on ctx, "
                     f"not in a variable the next call overwrites)", **TOL[f64])
