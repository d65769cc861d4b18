"""Hidden checks for the custom autograd Functions of 15-01 (judge side)."""
import math

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings, strategies as st

from course.judge.expect import expect, expect_close, expect_none, expect_raises, fail, gradcheck_directional, jacobian_vs_reference
from course.judge.strategies import relayout

f64 = torch.float64


def rand(gen, *shape, dtype=f64, grad=True):
    return torch.randn(tuple(shape), generator=gen, dtype=dtype).requires_grad_(grad)


def expect_grad_list(r, n, what):
    """A reply's "grads" must hold one entry per input the judge sent (zip would stop at a shorter list)."""
    grads = r.get("grads") if isinstance(r, dict) else None
    expect(isinstance(grads, list) and len(grads) == n, f"{what}: expected {n} gradients back, got "
                                                        f"{len(grads) if isinstance(grads, list) else grads!r}")


# ------------------------------------------------------------------ ScaledMul
def scaled_mul_grads(x, y, alpha, g):
    """The judge's gradients of alpha * x * y for the incoming gradient g (None where no grad is needed)."""
    xr, yr = x.detach().clone().requires_grad_(x.requires_grad), y.detach().clone().requires_grad_(y.requires_grad)
    need = [t for t in (xr, yr) if t.requires_grad]
    got = iter(torch.autograd.grad(alpha * xr * yr, need, g))
    return [next(got) if t.requires_grad else None for t in (xr, yr)]


BROADCAST_SHAPES = [((5,), (5,)), ((3, 1), (4,)), ((2, 3, 4), (3, 1)), ((1, 4), (3, 1)), ((), (2, 3)),
                    ((), ()), ((0, 3), (3,))]  # a one-element output and a zero-size one are no special case


@pytest.mark.task("scaled_mul")
@pytest.mark.parametrize("sx,sy", BROADCAST_SHAPES, ids=[f"{a}x{b}" for a, b in BROADCAST_SHAPES])
def test_scaled_mul_matches_autograd(student, gen, sx, sy):
    """ScaledMul: output and both gradients match alpha*x*y, with broadcasting"""
    alpha = float(torch.empty(()).uniform_(-3, 3, generator=gen))
    x, y = rand(gen, *sx), rand(gen, *sy)
    jacobian_vs_reference(student, "function_vjp", [x, y], lambda a, b: alpha * a * b,
                          f"ScaledMul.apply(x, y, {alpha:.3f}) with x{tuple(sx)}, y{tuple(sy)}",
                          gen=gen, name="ScaledMul", extra=(alpha,), atol=1e-10, rtol=1e-8)


@pytest.mark.task("scaled_mul")
def test_scaled_mul_gradcheck_non_contiguous(student, gen):
    """ScaledMul: gradcheck on non-contiguous (transposed) float64 inputs"""
    x = torch.randn(4, 3, generator=gen, dtype=f64).t().requires_grad_(True)  # (3, 4), non-contiguous
    y = torch.randn(3, 1, generator=gen, dtype=f64).requires_grad_(True)
    gradcheck_directional(student, "function_directional", [x, y],
                          "ScaledMul.apply(x, y, 0.7) with a transposed x of shape (3, 4) and y of shape (3, 1)",
                          gen=gen, name="ScaledMul", extra=(0.7,), reference=lambda a, b: 0.7 * a * b)


@pytest.mark.task("scaled_mul")
def test_scaled_mul_returns_one_gradient_per_input(student, gen):
    """ScaledMul.backward returns three gradients, None for alpha, and saves tensors for backward"""
    x, y = rand(gen, 2, 3), rand(gen, 3)
    alpha = float(torch.empty(()).uniform_(0.5, 2.0, generator=gen))
    g = torch.randn(2, 3, generator=gen, dtype=f64)
    r = student.call("raw_backward", name="ScaledMul", inputs=[x, y], grad=g, extra=(alpha,))
    expect(r["n"] == 3, f"ScaledMul.backward must return 3 gradients (x, y, alpha), it returned {r['n']}")
    expect_grad_list(r, 3, "ScaledMul.backward's return value")
    expect_none(r["grads"][2], "the gradient ScaledMul.backward returns for the float alpha")
    expect(r["saved"] >= 1, "ScaledMul should keep x and y with ctx.save_for_backward "
                            "(ctx.saved_tensors is empty)")
    for label, got, want in zip("xy", r["grads"], scaled_mul_grads(x, y, alpha, g)):
        expect_close(got, want, f"ScaledMul.backward's gradient for {label} (alpha = {alpha:.3f})", atol=1e-10, rtol=1e-8)


@pytest.mark.task("scaled_mul")
def test_scaled_mul_backward_reduces_broadcast_dimensions(student, gen):
    """ScaledMul.backward returns each gradient in its own input's shape (summed over broadcast dimensions)"""
    x, y = rand(gen, 3, 1), rand(gen, 4)
    alpha = float(torch.empty(()).uniform_(0.5, 2.0, generator=gen))
    g = torch.randn(3, 4, generator=gen, dtype=f64)
    r = student.call("raw_backward", name="ScaledMul", inputs=[x, y], grad=g, extra=(alpha,))
    expect(r["n"] >= 2, f"ScaledMul.backward returned {r['n']} gradient(s)")
    xr, yr = x.detach().clone().requires_grad_(), y.detach().clone().requires_grad_()
    want = torch.autograd.grad(alpha * xr * yr, [xr, yr], g)
    for i, (label, shape) in enumerate((("x", (3, 1)), ("y", (4,)))):
        got = r["grads"][i]
        expect(isinstance(got, torch.Tensor), f"ScaledMul.backward returned {got!r} for {label}, not a tensor")
        expect(tuple(got.shape) == shape, f"ScaledMul.backward(grad of shape (3, 4)) returned a gradient for "
               f"{label} of shape {tuple(got.shape)}; it must have {label}'s shape {shape}: sum over the broadcast "
               f"dimensions (Tensor.sum_to_size)")
        expect_close(got, want[i], f"ScaledMul.backward's gradient for {label} (x of shape (3, 1), y of shape (4,))",
                     atol=1e-10, rtol=1e-8)


@pytest.mark.task("scaled_mul")
@pytest.mark.parametrize("which", [0, 1])
def test_scaled_mul_needs_input_grad(student, gen, which):
    """ScaledMul.backward returns None for an input that does not require grad"""
    # broadcast shapes: the gradient of the input that does need one is still reduced to its shape
    x, y = rand(gen, 3, 1), rand(gen, 2, 1, 4)
    inputs = [x, y]
    inputs[which] = inputs[which].detach()
    alpha = float(torch.empty(()).uniform_(0.5, 2.0, generator=gen))
    g = torch.randn(2, 3, 4, generator=gen, dtype=f64)
    r = student.call("raw_backward", name="ScaledMul", inputs=inputs, grad=g, extra=(alpha,))
    expect(r["n"] >= 2, f"ScaledMul.backward returned {r['n']} gradient(s)")
    label = "x" if which == 0 else "y"
    expect_none(r["grads"][which], f"ScaledMul.backward's gradient for {label} when {label}.requires_grad "
                                   f"is False (check ctx.needs_input_grad)")
    other = r["grads"][1 - which]
    expect(isinstance(other, torch.Tensor), "ScaledMul.backward must still return the gradient of the "
                                            "other input, which does require grad")
    expect_close(other, scaled_mul_grads(*inputs, alpha, g)[1 - which], "ScaledMul.backward's gradient for "
                 f"{'yx'[which]}, the input that requires grad (x of shape (3, 1), y of shape (2, 1, 4): reduced to "
                 f"its own shape)", atol=1e-10, rtol=1e-8)


@pytest.mark.task("scaled_mul")
def test_scaled_mul_computes_nothing_unneeded(student, gen):
    """ScaledMul.backward runs fewer tensor operations when one input needs no gradient than when both do, and
    reads nothing only that gradient needs (counted by the judge while backward runs: nothing is computed for the
    input that needs none)"""
    x, y = rand(gen, 3, 4), rand(gen, 3, 4)
    alpha = float(torch.empty(()).uniform_(0.5, 2.0, generator=gen))
    g = torch.randn(3, 4, generator=gen, dtype=f64)
    n = student.call("backward_op_counts", name="ScaledMul", inputs=[x, y], grad=g, extra=(alpha,))
    for key, label, other in (("10", "y", "x"), ("01", "x", "y")):
        expect(n[key] < n["11"], f"ScaledMul.backward ran {n['11']} tensor operations when x and y both require "
               f"grad and {n[key]} when {label} does not: for an input whose ctx.needs_input_grad entry is False, "
               f"compute nothing (check the flag before computing that gradient, not after)")
        read = n["read" + key]
        expect(read == "", f"ScaledMul.backward with only {other} requiring grad read {other}'s values (aten.{read}); "
               f"{other} enters only {label}'s gradient (grad_out * {other} * alpha), which is not asked for: for an "
               f"input whose ctx.needs_input_grad entry is False, compute nothing (check the flag before computing "
               f"that gradient, not after)")


@pytest.mark.task("scaled_mul")
@pytest.mark.parametrize("alpha", [1.75, 0.0], ids=["alpha", "alpha0"])
def test_scaled_mul_zero_inputs(student, gen, alpha):
    """ScaledMul: output and gradients match alpha*x*y where x and y hold exact zeros, inf and nan (and for
    alpha = 0: 0 * inf is nan, as torch computes alpha * x * y)"""
    x, y = rand(gen, 3, 4, grad=False), rand(gen, 4, grad=False)
    x[torch.rand(3, 4, generator=gen) < 0.4] = 0.0
    x[0, 0], x[1, 1], y[1], y[2] = 0.0, -0.0, 0.0, -0.0
    x[2, int(torch.randint(0, 4, (), generator=gen))] = float("inf")   # row 2: no zero forced there
    x[int(torch.randint(0, 2, (), generator=gen)), 3] = float("nan")
    x.requires_grad_(True), y.requires_grad_(True)
    jacobian_vs_reference(student, "function_vjp", [x, y], lambda a, b: alpha * a * b,
                          f"ScaledMul.apply(x, y, {alpha}) with x (3, 4) and y (4,) holding exact zeros, inf and nan "
                          f"(x = {[[round(v, 3) for v in r] for r in x.tolist()]}, y = {[round(v, 3) for v in y.tolist()]})",
                          gen=gen, name="ScaledMul", extra=(alpha,), atol=1e-10, rtol=1e-8)


@pytest.mark.task("scaled_mul")
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32], ids=["float64", "float32"])
def test_scaled_mul_in_input_dtype(student, gen, dtype):
    """ScaledMul computes alpha * x * y in the inputs' dtype: alpha at full float64 precision for float64 inputs
    (alpha is a Python float), a float32 result for float32 inputs, 0-dim inputs too"""
    for shape in ((3, 4), ()):  # 0-dim: a 0-dim float64 alpha (torch.tensor(alpha, dtype=float64)) would promote them
        x = torch.randn(shape, generator=gen, dtype=f64).to(dtype).requires_grad_(True)
        y = torch.randn(shape, generator=gen, dtype=f64).to(dtype).requires_grad_(True)
        alpha = float(torch.empty((), dtype=f64).uniform_(0.1, 3.0, generator=gen))  # not a float32 value
        v = torch.randn(shape, generator=gen, dtype=f64).to(dtype)
        r = student.call("function_vjp", name="ScaledMul", inputs=[x, y], v=v, extra=(alpha,))
        want = scaled_mul_grads(x, y, alpha, v)
        tol = dict(atol=0, rtol=1e-12) if dtype == f64 else dict(atol=1e-6, rtol=1e-5)
        hint = (" (alpha is a Python float: torch.tensor(alpha) rounds it to float32, 1e-8 off)" if dtype == f64 else
                " (alpha * x * y of float32 tensors is float32: compute in the inputs' dtype; a 0-dim float64 "
                "tensor made from alpha turns 0-dim float32 inputs into float64)")
        what = f"ScaledMul.apply(x, y, {alpha!r}) for {dtype} x, y of shape {shape}"
        expect_close(r["out"], alpha * x.detach() * y.detach(), what + hint, check_dtype=True, **tol)
        expect_grad_list(r, 2, what)
        for label, got, w in zip("xy", r["grads"], want):
            expect_close(got, w, f"the gradient for {label} of {what}{hint}", check_dtype=True, **tol)


@pytest.mark.task("scaled_mul", weight=0.1)  # its right answer is a constant ("raised X"): worth little
def test_scaled_mul_detects_inplace_change_of_saved_inputs(student, gen):
    """ScaledMul keeps its inputs through save_for_backward (in-place changes are detected)"""
    x, y = rand(gen, 3), rand(gen, 3)
    # each input changed alone: a tensor kept as an attribute (ctx.y = y) next to a saved one escapes the check
    for which, label in (([0], "x"), ([1], "y")):
        r = student.call("modify_saved_then_backward", name="ScaledMul", inputs=[x, y], extra=(1.0,), which=which)
        expect_raises(r, "RuntimeError", f"changing only {label} in place between ScaledMul.apply(x, y, 1.0)'s "
                      f"forward and backward should make backward raise (each tensor backward uses must be kept "
                      f"with ctx.save_for_backward, which version-checks it; not as an attribute of ctx)",
                      match="inplace")


@pytest.mark.task("scaled_mul")
def test_scaled_mul_leaves_inputs_unchanged(student, gen):
    """ScaledMul.apply(x, y, alpha) leaves x and y as they were, whichever of them requires grad"""
    x, y = torch.randn(3, 4, generator=gen, dtype=f64), torch.randn(4, generator=gen, dtype=f64)
    alpha = float(torch.empty((), dtype=f64).uniform_(1.5, 3.0, generator=gen))
    for needs in ((True, True), (True, False), (False, True)):
        after = student.call("apply_then_inputs", name="ScaledMul",
                             inputs=[x.clone().requires_grad_(needs[0]), y.clone().requires_grad_(needs[1])],
                             extra=(alpha,))
        expect(isinstance(after, list) and len(after) == 2, f"ScaledMul.apply(x, y, {alpha:.3f}): expected x and y "
               f"back, got {len(after) if isinstance(after, list) else type(after).__name__}")
        for label, got, want in zip("xy", after, (x, y)):
            expect_close(got, want, f"{label} after ScaledMul.apply(x, y, {alpha:.3f}) with x (3, 4) "
                         f"(requires_grad={needs[0]}) and y (4,) (requires_grad={needs[1]}): your forward changed "
                         f"its input in place (alpha * x * y is a new tensor; do not fold alpha into an input with "
                         f"mul_)", atol=0, rtol=0)


@pytest.mark.task("scaled_mul")
def test_scaled_mul_nodes_keep_their_own_alpha(student, gen):
    """ScaledMul: two nodes built with different alphas before one backward each use their own alpha"""
    alphas = [float(torch.empty((), dtype=f64).uniform_(lo, lo + 1.0, generator=gen)) for lo in (0.5, -2.5)]
    pairs = [[rand(gen, 3, 1), rand(gen, 4)], [rand(gen, 2, 3), rand(gen, 3)]]
    v = [torch.randn(3, 4, generator=gen, dtype=f64), torch.randn(2, 3, generator=gen, dtype=f64)]
    got = student.call("two_nodes_vjp", name="ScaledMul", first=(pairs[0], (alphas[0],)),
                       second=(pairs[1], (alphas[1],)), v=v)
    what = (f"out1 = ScaledMul.apply(x1, y1, {alphas[0]:.3f}) and out2 = ScaledMul.apply(x2, y2, {alphas[1]:.3f}) "
            f"built one after the other, then one backward through both")
    for i, ((x, y), alpha, w, r) in enumerate(zip(pairs, alphas, v, got), start=1):
        expect_close(r["out"], alpha * x.detach() * y.detach(), f"{what}: out{i}", atol=1e-10, rtol=1e-8)
        expect_grad_list(r, 2, f"{what}: node {i}")
        for label, g, want in zip("xy", r["grads"], scaled_mul_grads(x, y, alpha, w)):
            expect_close(g, want, f"{what}: the gradient for {label}{i} (each node's backward must use the alpha "
                         f"of its own call, {alpha:.3f}: keep it on ctx, not on the class or in a global)",
                         atol=1e-10, rtol=1e-8)


@pytest.mark.task("scaled_mul")
@pytest.mark.parametrize("dtypes", [(torch.float32, f64), (f64, torch.float32)], ids=["x32_y64", "x64_y32"])
def test_scaled_mul_mixed_dtypes(student, gen, dtypes):
    """ScaledMul on one float32 and one float64 input returns alpha * x * y as PyTorch promotes it (float64),
    and each input's gradient"""
    x = torch.randn(3, 1, generator=gen, dtype=f64).to(dtypes[0]).requires_grad_(True)
    y = torch.randn(4, generator=gen, dtype=f64).to(dtypes[1]).requires_grad_(True)
    alpha = float(torch.empty((), dtype=f64).uniform_(0.1, 3.0, generator=gen))
    v = torch.randn(3, 4, generator=gen, dtype=f64)
    r = student.call("function_vjp", name="ScaledMul", inputs=[x, y], v=v, extra=(alpha,))
    what = (f"ScaledMul.apply(x, y, {alpha!r}) for a {dtypes[0]} x of shape (3, 1) and a {dtypes[1]} y of shape "
            f"(4,) (alpha * x * y is float64 by PyTorch's type promotion: cast neither input to the other's dtype)")
    # float32 tolerances: where the float32 input meets alpha first (alpha * x) the product is rounded to float32,
    # so the order of the factors moves the result by float32 rounding; the dtype is what the check is about
    expect_close(r["out"], alpha * x.detach() * y.detach(), what, atol=1e-6, rtol=1e-5, check_dtype=True)
    expect_grad_list(r, 2, what)
    for label, got, want in zip("xy", r["grads"], scaled_mul_grads(x, y, alpha, v)):
        expect_close(got, want, f"the gradient for {label} of {what}", atol=1e-6, rtol=1e-5, check_dtype=True)


# ------------------------------------------------------------------ StableSoftplus
@pytest.mark.task("softplus")
@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4), (), (1,)])  # (), (1,): one element is no special case
def test_softplus_matches_torch(student, gen, shape):
    """StableSoftplus matches F.softplus and its gradient sigmoid(x) on random float64 inputs"""
    x = (rand(gen, *shape, grad=False) * 8).requires_grad_(True)
    jacobian_vs_reference(student, "function_vjp", [x], F.softplus, f"StableSoftplus.apply(x) for x of shape {shape}",
                          gen=gen, name="StableSoftplus", atol=1e-10, rtol=1e-8)


@pytest.mark.task("softplus")
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["float32", "float64"])
def test_softplus_extreme_inputs(student, gen, dtype):
    """StableSoftplus is finite and correct for inputs from -1000 to 1000 (forward and gradient)"""
    # one random point in each range, plus both ends and 0
    edges = torch.tensor([-1000.0, -200.0, -40.0, -1e-3, 1e-3, 40.0, 88.5, 200.0, 1000.0], dtype=f64)
    inner = edges[:-1] + torch.rand(len(edges) - 1, generator=gen, dtype=f64) * edges.diff()
    x = torch.cat([edges[:1], inner, torch.tensor([0.0], dtype=f64), edges[-1:]]).to(dtype)
    r = student.call("single_backward", name="StableSoftplus", x=x)
    tol = dict(atol=1e-6, rtol=1e-5) if dtype == torch.float32 else dict(atol=1e-12, rtol=1e-10)
    expect_close(r["out"], F.softplus(x), f"StableSoftplus.apply(x) for x = {[float(f'{v:g}') for v in x.tolist()]} ({dtype})", **tol)
    expect_close(r["grad"], torch.sigmoid(x), f"gradient of StableSoftplus for x = {[float(f'{v:g}') for v in x.tolist()]} ({dtype})", **tol)


@pytest.mark.task("softplus")
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 6), scale=st.sampled_from([1.0, 10.0, 50.0]))
def test_softplus_gradcheck_property(student, seed, n, scale):
    """StableSoftplus: backward agrees with finite differences of its forward (random inputs)"""
    gen = torch.Generator().manual_seed(seed)
    x = (torch.randn(n, 3, generator=gen, dtype=f64) * scale).requires_grad_(True)
    gradcheck_directional(student, "function_directional", [x], f"StableSoftplus.apply(x), x of shape ({n}, 3), "
                          f"scale {scale}", gen=gen, name="StableSoftplus", n_dirs=2,
                          reference=torch.nn.functional.softplus)


@pytest.mark.task("softplus")
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["float32", "float64"])
def test_softplus_near_overflow(student, gen, dtype):
    """StableSoftplus stays finite and correct where exp(x) overflows (near 88.7 in float32, 709.8 in float64)"""
    edge = 88.72 if dtype == torch.float32 else 709.78
    offsets = torch.tensor([-1, -0.1, 0.05, 0.5, 3, 40, edge, -2 * edge - 3, -3 * edge], dtype=f64)
    x = (edge + offsets * (1 + 0.2 * torch.rand(len(offsets), generator=gen, dtype=f64))).to(dtype)
    pts = x.tolist()
    r = student.call("single_backward", name="StableSoftplus", x=x)
    shown = [round(float(v), 2) for v in x.tolist()]
    tol = dict(atol=1e-6, rtol=1e-6) if dtype == torch.float32 else dict(atol=1e-12, rtol=1e-12)
    expect_close(r["out"], F.softplus(x), f"StableSoftplus.apply(x) for x = {shown} ({dtype})", **tol)
    expect_close(r["grad"], torch.sigmoid(x), f"gradient of StableSoftplus for x = {shown} ({dtype})", **tol)


def tiny(gen):
    """Seven very negative float64 inputs, from about -700 to -30 (softplus(x) ~ exp(x) there)."""
    edges = torch.tensor([-700.0, -300.0, -100.0, -50.0, -40.0, -37.0, -33.0, -30.0], dtype=f64)
    return edges[:-1] + torch.rand(7, generator=gen, dtype=f64) * edges.diff()


@pytest.mark.task("softplus")
def test_softplus_tiny_values_accurate(student, gen):
    """StableSoftplus keeps full relative accuracy for very negative x, where softplus(x) ~ exp(x) (log1p)"""
    x = tiny(gen)
    r = student.call("single_backward", name="StableSoftplus", x=x)
    shown = [round(v, 2) for v in x.tolist()]
    expect_close(r["out"], F.softplus(x), f"StableSoftplus.apply(x) for x = {shown} (float64; the values are about "
                 f"exp(x): log(1 + ...) instead of log1p loses them)", atol=0, rtol=1e-10)


@pytest.mark.task("softplus")
def test_softplus_tiny_gradients_accurate(student, gen):
    """StableSoftplus's gradient sigmoid(x) keeps full relative accuracy for very negative x"""
    x = tiny(gen)
    r = student.call("single_backward", name="StableSoftplus", x=x)
    shown = [round(v, 2) for v in x.tolist()]
    expect_close(r["grad"], torch.sigmoid(x), f"gradient of StableSoftplus for x = {shown} (float64; about exp(x): a "
                 f"form like 1 - exp(-softplus(x)) cancels to 0)", atol=0, rtol=1e-10)


@pytest.mark.task("softplus")
def test_softplus_keeps_dtype(student, gen):
    """StableSoftplus returns the input's dtype (float32 in, float32 out), like F.softplus, for an x of shape (5,)
    and for a 0-dim x (where a 0-dim float64 constant in the formula would promote a 0-dim float32 x to float64)"""
    for shape in ((5,), ()):
        for dtype in (torch.float32, torch.float64):
            x = torch.randn(shape, generator=gen).to(dtype)
            r = student.call("single_backward", name="StableSoftplus", x=x)
            what = f"StableSoftplus.apply(x) for a {dtype} x of shape {shape}"
            expect(r["out"].dtype == dtype, f"{what} returned {r['out'].dtype}, expected {dtype} (as F.softplus"
                                            f"{'; a 0-dim float64 tensor in the formula promotes a 0-dim x' if not shape else ''})")
            expect(r["grad"].dtype == dtype, f"the gradient of {what} is {r['grad'].dtype}, expected {dtype}")
            tol = dict(atol=1e-6, rtol=1e-5) if dtype == torch.float32 else dict(atol=1e-12, rtol=1e-10)
            expect_close(r["out"], F.softplus(x), what, **tol)
            expect_close(r["grad"], torch.sigmoid(x), f"the gradient of {what}", **tol)


@pytest.mark.task("softplus")
@pytest.mark.parametrize("shape,layout", [((5, 4), "transposed"), ((2, 3, 4, 5), "channels_last")],
                         ids=["transposed", "channels_last"])
def test_softplus_non_contiguous(student, gen, shape, layout):
    """StableSoftplus matches F.softplus and sigmoid(x) on non-contiguous inputs (transposed, channels-last)"""
    x = relayout(torch.randn(shape, generator=gen, dtype=f64) * 8, layout).requires_grad_(True)
    jacobian_vs_reference(student, "function_vjp", [x], F.softplus, f"StableSoftplus.apply(x) for a {layout} "
                          f"(non-contiguous) x of shape {shape}, stride {x.stride()}: x.view(...) raises on such "
                          f"inputs, reshape or elementwise ops do not", gen=gen, name="StableSoftplus",
                          atol=1e-10, rtol=1e-8)


@pytest.mark.task("softplus")
def test_softplus_nodes_keep_their_own_input(student, gen):
    """StableSoftplus: two nodes built before one backward each return grad_out * sigmoid of their own input"""
    xs = [(rand(gen, 3, 4, grad=False) * 6).requires_grad_(True) for _ in range(2)]
    v = [torch.randn(3, 4, generator=gen, dtype=f64) for _ in range(2)]
    got = student.call("two_nodes_vjp", name="StableSoftplus", first=([xs[0]], ()), second=([xs[1]], ()), v=v)
    what = ("out1 = StableSoftplus.apply(x1) and out2 = StableSoftplus.apply(x2) (x1, x2 of shape (3, 4)) built one "
            "after the other, then one backward through both")
    expect(isinstance(got, list) and len(got) == 2, f"{what}: expected two nodes' results back, got "
                                                    f"{len(got) if isinstance(got, list) else type(got).__name__}")
    for i, (x, w, r) in enumerate(zip(xs, v, got), start=1):
        expect_close(r["out"], F.softplus(x.detach()), f"{what}: out{i}", atol=1e-10, rtol=1e-8)
        grads = r.get("grads")
        expect(isinstance(grads, list) and len(grads) == 1, f"{what}: expected one gradient for x{i}, got {grads!r}")
        expect_close(grads[0], w * torch.sigmoid(x.detach()), f"{what}: the gradient for x{i} (each node's backward "
                     f"returns grad_out * sigmoid(x) of its own x: keep x on ctx (ctx.save_for_backward), not on the "
                     f"class or in a global)", atol=1e-10, rtol=1e-8)


@pytest.mark.task("softplus")
def test_softplus_leaves_incoming_gradient_alone(student, gen):
    """StableSoftplus.backward returns grad_out * sigmoid(x) as a new tensor and leaves the incoming gradient as it
    was: in StableSoftplus.apply(x) + w, the sum's other branch (w) gets the full gradient, as with F.softplus"""
    x = (rand(gen, 12, grad=False) * 4).requires_grad_(True)
    v = torch.randn(12, generator=gen, dtype=f64)
    r = student.call("vjp_keeps_grad_out", name="StableSoftplus", inputs=[x], v=v)
    what = ("torch.autograd.grad(StableSoftplus.apply(x) + w, [x, w], v) for x of shape (12,) and a contiguous "
            "incoming gradient v")
    expect_close(r["v_after"], v, f"{what}: the incoming gradient v afterwards (your backward changed grad_out in "
                 f"place, e.g. grad_out.mul_(...) or grad_out.contiguous().mul_(...); autograd hands the same tensor to "
                 f"other branches and to the caller: return grad_out * torch.sigmoid(x), a new tensor)", atol=0, rtol=0)
    expect_close(r["w_grad"], v, f"{what}: the gradient of w, the other branch of the sum (it must be v)", atol=0,
                 rtol=0)
    expect_close(r["grads"][0], v * torch.sigmoid(x.detach()), f"{what}: the gradient of x", atol=1e-12, rtol=1e-10)


@pytest.mark.task("softplus", weight=0.1)  # its right answer is mostly a constant ("raised X"): worth little
def test_softplus_inplace_change_of_input(student, gen):
    """StableSoftplus: x changed in place between forward and backward makes backward raise (x kept with
    ctx.save_for_backward, as F.softplus does), or leaves the gradient that of the x forward saw; never the
    gradient of the changed x (x kept as an attribute of ctx)"""
    x = rand(gen, 6)
    v = torch.randn(6, generator=gen, dtype=f64)
    r = student.call("modify_input_then_vjp", name="StableSoftplus", inputs=[x], v=v)
    what = ("h = x * 1; y = StableSoftplus.apply(h); h.add_(1.0); then the gradient of <v, y> for x (F.softplus "
            "raises there: it keeps its input with save_for_backward, which version-checks it)")
    if r["error"]["raised"]:
        expect_raises(r["error"], "RuntimeError", what, match="inplace")
        return
    expect(isinstance(r["grads"], list) and len(r["grads"]) == 1, f"{what}: expected one gradient back, got "
                                                                  f"{r['grads']!r}")
    expect_close(r["grads"][0], v * torch.sigmoid(x.detach()), f"{what}: backward returned a gradient of the "
                 f"changed values instead of raising (keep x with ctx.save_for_backward, not as an attribute of ctx, "
                 f"so that an in-place change is detected)", atol=1e-10, rtol=1e-8)


# ------------------------------------------------------------------ LogCosh
def _logcosh(x):
    return x + torch.nn.functional.softplus(-2 * x) - math.log(2.0)  # log(cosh(x)), stable

def logcosh_ref(x):
    return x.abs() + F.softplus(-2 * x.abs()) - math.log(2.0)


@pytest.mark.task("logcosh")
def test_logcosh_float64_after_float32(student, gen):  # first of the LogCosh checks: a cache is made by a process's first call
    """LogCosh called on a float32 x and then on a float64 x: the float64 values are log(cosh(x)) at float64
    precision (nothing made for the first call's dtype is used for the second's)"""
    x32 = torch.randn(6, generator=gen) * 3
    x64 = torch.cat([torch.randn(6, generator=gen, dtype=f64) * 3, torch.tensor([0.0, 1e-3, -2.5], dtype=f64)])
    outs = student.call("outputs_in_turn", name="LogCosh", xs=[x32, x64])
    expect(isinstance(outs, list) and len(outs) == 2, f"LogCosh on two inputs in turn: expected two outputs back, got "
                                                     f"{len(outs) if isinstance(outs, list) else type(outs).__name__}")
    expect_close(outs[0], logcosh_ref(x32), f"LogCosh.apply(x) for a float32 x = {x32.tolist()}", atol=1e-6,
                 rtol=1e-5, check_dtype=True)
    expect_close(outs[1], logcosh_ref(x64), f"LogCosh.apply(x) for a float64 x = {x64.tolist()}, called after a "
                 f"float32 call (log 2 at float64 precision: a constant cached from the float32 call is 1.9e-9 off)",
                 atol=1e-14, rtol=1e-12, check_dtype=True)


@pytest.mark.task("logcosh")
def test_logcosh_value_and_gradient(student, gen):
    """LogCosh matches log(cosh(x)) and its gradient tanh(x), also for |x| up to 500"""
    x = torch.cat([torch.randn(20, generator=gen, dtype=f64) * 3, torch.tensor([-500.0, -60.0, 0.0, 60.0, 500.0],
                                                                                dtype=f64)]).requires_grad_(True)
    jacobian_vs_reference(student, "function_vjp", [x], logcosh_ref, "LogCosh.apply(x)", gen=gen, name="LogCosh",
                          atol=1e-10, rtol=1e-8)


@pytest.mark.task("logcosh")
@pytest.mark.parametrize("shape", [(), (1,)], ids=["0-dim", "one"])
def test_logcosh_single_element(student, gen, shape):
    """LogCosh matches log(cosh(x)) and tanh(x) for a one-element x (0-dim or shape (1,)) too"""
    x = (torch.randn(shape, generator=gen, dtype=f64) * 3).requires_grad_(True)
    jacobian_vs_reference(student, "function_vjp", [x], logcosh_ref, f"LogCosh.apply(x) for x = {x.tolist()} "
                          f"(shape {shape}: a one-element input is no special case)", gen=gen, name="LogCosh",
                          atol=1e-10, rtol=1e-8)


@pytest.mark.task("logcosh")
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["float32", "float64"])
def test_logcosh_beyond_cosh_overflow(student, gen, dtype):
    """LogCosh is computed stably: finite and correct where cosh(x) overflows (|x| > 89 / 710)"""
    edge = 89.0 if dtype == torch.float32 else 710.5
    far = edge * (1 + torch.rand(4, generator=gen, dtype=f64))  # between edge and 2 * edge
    x = torch.cat([-far[:2], torch.tensor([-edge, edge], dtype=f64), far[2:]]).to(dtype)
    r = student.call("single_backward", name="LogCosh", x=x)
    tol = dict(atol=1e-5, rtol=1e-6) if dtype == torch.float32 else dict(atol=1e-10, rtol=1e-12)
    expect_close(r["out"], logcosh_ref(x), f"LogCosh.apply(x) for x = {x.tolist()} ({dtype})", **tol)
    expect_close(r["grad"], torch.tanh(x), f"gradient of LogCosh for x = {x.tolist()} ({dtype})", **tol)


@pytest.mark.task("logcosh")
def test_logcosh_keeps_dtype(student, gen):
    """LogCosh returns the input's dtype (float32 in, float32 out), like torch.log(torch.cosh(x)), for an x of
    shape (5,) and for a 0-dim x (where a 0-dim float64 constant, such as log 2 as a float64 tensor, would promote a
    0-dim float32 x to float64), and float16 in, float16 out"""
    for shape in ((5,), ()):
        for dtype in (torch.float32, torch.float64):
            x = (torch.randn(shape, generator=gen) * 3).to(dtype)
            r = student.call("single_backward", name="LogCosh", x=x)
            what = f"LogCosh.apply(x) for a {dtype} x of shape {shape}"
            expect(r["out"].dtype == dtype, f"{what} returned {r['out'].dtype}, expected {dtype} (compute in x's "
                                            f"dtype; an upcast for accuracy must be cast back"
                                            f"{'; a 0-dim float64 tensor such as torch.tensor(math.log(2.0), dtype=torch.float64) promotes a 0-dim x: subtract the Python float math.log(2.0)' if not shape else ''})")
            tol = dict(atol=1e-6, rtol=1e-5) if dtype == torch.float32 else dict(atol=1e-12, rtol=1e-10)
            expect_close(r["out"], logcosh_ref(x), what, **tol)
            expect_close(r["grad"], torch.tanh(x), f"the gradient of {what}", **tol)
    x = (torch.randn(5, generator=gen) * 3).to(torch.float16)  # half precision: still x's dtype out
    r = student.call("single_backward", name="LogCosh", x=x)
    what = f"LogCosh.apply(x) for a torch.float16 x = {x.tolist()}"
    expect(r["out"].dtype == torch.float16, f"{what} returned {r['out'].dtype}, expected torch.float16 as "
                                            f"torch.log(torch.cosh(x)) gives (an upcast for accuracy must be cast back)")
    expect_close(r["out"].double(), logcosh_ref(x.double()), what, atol=2e-2, rtol=1e-2)


@pytest.mark.task("logcosh")
@pytest.mark.parametrize("shape", [(6,), (2, 5)])
def test_logcosh_gradgradcheck(student, gen, shape):
    """LogCosh is twice differentiable: the second derivative agrees with finite differences"""
    x = rand(gen, *shape)
    gradcheck_directional(student, "function_directional", [x], f"LogCosh.apply(x) for x of shape {shape}",
                          gen=gen, name="LogCosh", order=2, reference=_logcosh)
    gradcheck_directional(student, "function_directional", [x], f"LogCosh.apply(x) for x of shape {shape}",
                          gen=gen, name="LogCosh", order=1, reference=_logcosh)


@pytest.mark.task("logcosh")
def test_logcosh_second_derivative_far_out(student, gen):
    """LogCosh's gradient is differentiable far out too (float64): the second derivative is 1 - tanh(x)**2
    (finite, 0 beyond a few tens) where exp(2|x|) overflows, as gradgradcheck at those inputs demands"""
    edge = 356.0   # exp(2 * edge) overflows float64
    far = edge * (1 + torch.rand(4, generator=gen, dtype=f64))
    x = torch.cat([-far[:2], far[2:], torch.tensor([-edge, edge, -3.0, 0.0, 2.0], dtype=f64)])
    r = student.call("second_derivative", name="LogCosh", x=x)
    xr = x.clone().requires_grad_(True)
    (g,) = torch.autograd.grad(torch.tanh(xr).sum(), xr)   # torch's own d tanh / dx
    expect_close(r["second"], g, f"second derivative of LogCosh.apply(x).sum() for x = "
                 f"{[round(v, 2) for v in x.tolist()]} (float64): the gradient of your backward's output "
                 f"(create_graph=True); it must stay finite where exp(2|x|) overflows", atol=1e-12, rtol=1e-10)


@pytest.mark.task("logcosh", weight=0.1)  # its right answer is a constant ("raised X"): worth little
def test_logcosh_detects_inplace_change_of_saved_input(student, gen):
    """LogCosh keeps its input through save_for_backward (an in-place change before backward is detected)"""
    x = rand(gen, 5)
    r = student.call("modify_saved_then_backward", name="LogCosh", inputs=[x])
    expect_raises(r, "RuntimeError", "changing x in place between LogCosh's forward and backward should make "
                  "backward raise: save the input with ctx.save_for_backward(x), not as an attribute (ctx.x = x), so "
                  "autograd checks its version and backward never computes tanh of changed values", match="inplace")


# ------------------------------------------------------------------ Clamp
@pytest.mark.task("clamp")
def test_clamp_matches_torch_including_kinks(student, gen):
    """Clamp matches torch.clamp in value and gradient, including inputs exactly at lo and hi"""
    lo, hi = -0.3, 0.7  # not representable in float32: the bounds must stay Python floats / float64
    x = torch.cat([torch.randn(30, generator=gen, dtype=f64),
                   torch.tensor([lo, hi, lo, hi, 0.0], dtype=f64)]).requires_grad_(True)
    jacobian_vs_reference(student, "function_vjp", [x], lambda t: torch.clamp(t, lo, hi),
                          f"Clamp.apply(x, {lo}, {hi}) (x includes values exactly at {lo} and {hi})",
                          gen=gen, name="Clamp", extra=(lo, hi), atol=0, rtol=0)


@pytest.mark.task("clamp")
@pytest.mark.parametrize("shape", [(), (1,)], ids=["0-dim", "one"])
def test_clamp_single_element(student, gen, shape):
    """Clamp matches torch.clamp in value and gradient for a one-element x (0-dim or shape (1,)) beyond a bound"""
    sign = 1.0 if float(torch.rand((), generator=gen)) < 0.5 else -1.0
    x = torch.full(shape, sign * (1.5 + float(torch.rand((), generator=gen))), dtype=f64).requires_grad_(True)
    jacobian_vs_reference(student, "function_vjp", [x], lambda t: torch.clamp(t, -0.3, 0.7),
                          f"Clamp.apply(x, -0.3, 0.7) for x = {x.tolist()} (shape {shape}: a one-element input is "
                          f"no special case)", gen=gen, name="Clamp", extra=(-0.3, 0.7), atol=0, rtol=0)


@pytest.mark.task("clamp")
def test_clamp_returns_none_for_bounds(student, gen):
    """Clamp.backward returns three values: the input gradient and None for lo and hi"""
    x = rand(gen, 6)
    g = torch.randn(6, generator=gen, dtype=f64)
    r = student.call("raw_backward", name="Clamp", inputs=[x], grad=g, extra=(-0.5, 0.5))
    expect(r["n"] == 3, f"Clamp.backward must return 3 values (x, lo, hi), it returned {r['n']}")
    expect_none(r["grads"][1], "Clamp.backward's gradient for lo")
    expect_none(r["grads"][2], "Clamp.backward's gradient for hi")
    inside = (x.detach() >= -0.5) & (x.detach() <= 0.5)
    expect_close(r["grads"][0], g * inside, "Clamp.backward's gradient for x (Clamp.apply(x, -0.5, 0.5))",
                 atol=0, rtol=0)


@pytest.mark.task("clamp")
def test_clamp_leaves_its_input_unchanged(student, gen):
    """Clamp.apply(x, lo, hi) returns a new tensor and leaves x as it was (no in-place clamp_)"""
    x = torch.cat([torch.randn(12, generator=gen, dtype=f64) * 3, torch.tensor([-0.5, 0.5], dtype=f64)])
    after = student.call("apply_then_inputs", name="Clamp", inputs=[x.clone().requires_grad_(True)],
                         extra=(-0.5, 0.5))
    expect_close(after[0], x, "x after Clamp.apply(x, -0.5, 0.5): your forward changed its input (clamp_ works "
                 "in place; use x.clamp(lo, hi))", atol=0, rtol=0)
    # nothing to clamp (every value strictly inside), with and without requires_grad: still a new tensor
    inside = torch.rand(8, generator=gen, dtype=f64) * 0.8 - 0.4
    for needs_grad in (True, False):
        shared = student.call("apply_shares_input", name="Clamp", inputs=[inside.clone().requires_grad_(needs_grad)],
                              extra=(-0.5, 0.5))
        expect(not shared, f"Clamp.apply(x, -0.5, 0.5) for x = {[round(v, 3) for v in inside.tolist()]} (all inside "
                           f"the bounds, requires_grad={needs_grad}) returned a tensor in x's own memory; torch.clamp "
                           f"returns a new tensor, so an in-place change of the result must not reach x (do not return "
                           f"x itself when nothing needs clamping)")


@pytest.mark.task("clamp")
def test_clamp_nan_gets_no_gradient(student, gen):
    """Clamp passes no gradient through NaN inputs, like torch.clamp (NaN is not strictly between lo and hi)"""
    x = torch.randn(10, generator=gen, dtype=f64).clamp(-0.9, 0.9)  # values strictly inside (-1, 1)
    x[torch.randperm(10, generator=gen)[:3]] = float("nan")
    xr = x.clone().requires_grad_(True)
    (want,) = torch.autograd.grad(torch.clamp(xr, -1.0, 1.0).sum(), xr)
    r = student.call("single_backward", name="Clamp", x=x, extra=(-1.0, 1.0))
    shown = [round(v, 3) for v in x.tolist()]
    expect(isinstance(r["out"], torch.Tensor) and tuple(r["out"].shape) == tuple(x.shape),
           f"Clamp.apply(x, -1.0, 1.0) for x = {shown}: expected a tensor of shape {tuple(x.shape)}, got "
           f"{tuple(r['out'].shape) if isinstance(r['out'], torch.Tensor) else type(r['out']).__name__}")
    expect(bool((r["out"].isnan() == x.isnan()).all()), f"Clamp.apply(x, -1.0, 1.0) for x = {shown}: NaN where "
           f"torch.clamp gives NaN (at {x.isnan().nonzero().flatten().tolist()}), got {r['out'].tolist()}")
    expect_close(r["grad"], want, f"gradient of Clamp.apply(x, -1.0, 1.0) for x = {shown}: torch.clamp passes no "
                 f"gradient where x is NaN, since the mask is lo < x < hi, strictly", atol=0, rtol=0)


@pytest.mark.task("clamp")
def test_clamp_non_finite_incoming_gradient(student, gen):
    """Clamp passes no gradient outside (lo, hi) even when the incoming gradient there is inf or NaN, like
    torch.clamp (0, not NaN: log(clamp(p, 0, 1)) at p <= 0 sends inf back)"""
    lo, hi = -1.0, 1.0
    inside = float(torch.rand((), generator=gen)) * 1.8 - 0.9
    x = torch.tensor([-2.5, lo, inside, hi, 3.0, -0.5], dtype=f64)
    v = torch.tensor([float("inf"), float("inf"), 1.5, float("nan"), -float("inf"), 2.0], dtype=f64)
    xr = x.clone().requires_grad_(True)
    (want,) = torch.autograd.grad(torch.clamp(xr, lo, hi), xr, v)
    r = student.call("function_vjp", name="Clamp", inputs=[x.clone().requires_grad_(True)], v=v, extra=(lo, hi))
    expect_close(r["grads"][0], want, f"gradient of Clamp.apply(x, {lo}, {hi}) for x = {[round(t, 3) for t in x.tolist()]} "
                 f"with incoming gradient {v.tolist()}: torch.clamp gives {want.tolist()} (where the mask is 0 the "
                 f"gradient is 0, whatever comes in: select with torch.where rather than multiply by the mask)",
                 atol=0, rtol=0)


@pytest.mark.task("clamp")
def test_clamp_leaves_incoming_gradient_alone(student, gen):
    """Clamp.backward leaves the incoming gradient as it was: in Clamp.apply(x, lo, hi) + w, the sum's other
    branch (w) gets the full gradient, as with torch.clamp"""
    lo, hi = -0.5, 0.5
    x = torch.cat([torch.randn(10, generator=gen, dtype=f64), torch.tensor([lo, hi, 2.0, -2.0], dtype=f64)])
    v = torch.randn(x.shape, generator=gen, dtype=f64)
    xr = x.clone().requires_grad_(True)
    (want,) = torch.autograd.grad(torch.clamp(xr, lo, hi), xr, v)
    r = student.call("vjp_keeps_grad_out", name="Clamp", inputs=[x.clone().requires_grad_(True)], v=v, extra=(lo, hi))
    what = (f"torch.autograd.grad(Clamp.apply(x, {lo}, {hi}) + w, [x, w], v) for x of shape (14,) with some entries "
            f"outside the bounds")
    expect_close(r["v_after"], v, f"{what}: the incoming gradient v afterwards (your backward changed grad_out in "
                 f"place, e.g. masked_fill_; autograd hands the same tensor to other branches: return a new tensor)",
                 atol=0, rtol=0)
    expect_close(r["w_grad"], v, f"{what}: the gradient of w, the other branch of the sum (it must be v)", atol=0, rtol=0)
    expect_close(r["grads"][0], want, f"{what}: the gradient of x", atol=0, rtol=0)


@pytest.mark.task("clamp", weight=0.1)  # its right answer is a constant ("raised X"): worth little
def test_clamp_is_once_differentiable(student, gen):
    """Differentiating Clamp twice raises (backward is marked once_differentiable)"""
    x = rand(gen, 5, grad=False)
    r = student.call("double_backward", name="Clamp", x=x, extra=(-0.3, 0.3))
    expect_raises(r, "RuntimeError", "differentiating Clamp's gradient a second time (create_graph=True, then "
                  "backward) should raise because backward is @once_differentiable", match="once_differentiable")


# ------------------------------------------------------------------ Non-trivial negative control
@pytest.mark.task("softplus")
def test_softplus_is_not_identity_on_negative_inputs(student, gen):
    """StableSoftplus(-x) != softplus(x): catches sign mistakes that finite checks near zero miss"""
    x = -(0.5 + 3 * torch.rand(2, generator=gen, dtype=f64))
    r = student.call("single_backward", name="StableSoftplus", x=x)
    if torch.allclose(r["out"], F.softplus(-x)) and not torch.allclose(r["out"], F.softplus(x)):
        fail("StableSoftplus.apply(x) returned softplus(-x): check the sign in your forward")
    expect_close(r["out"], F.softplus(x), f"StableSoftplus.apply(x) for x = {[round(v, 3) for v in x.tolist()]}",
                 atol=1e-12, rtol=1e-10)


# ------------------------------------------------------------------ off the default device
def expect_on_inputs_device(r, what, n_cases):
    """r from the probe function_devices: no error, one entry per case the judge sent, every output and gradient
    on the inputs' device ("meta" in the probe's words)."""
    expect(r.get("error") is None, f"{what}: raised {r.get('error')} with the inputs on another device than the "
                                   f"default one (as on a GPU): a tensor made without device= (torch.zeros(shape), "
                                   f"torch.tensor(...) of several values) sits on the default device; make it with "
                                   f"device=x.device, or with zeros_like / new_zeros")
    cases = r.get("cases")
    expect(isinstance(cases, list) and len(cases) == n_cases, f"{what}: expected {n_cases} results back, got "
                                                              f"{len(cases) if isinstance(cases, list) else cases!r}")
    for i, case in enumerate(cases):
        for key, where in case.items():
            for j, w in enumerate(where if isinstance(where, list) else [where]):
                expect(w in ("meta", None), f"{what}, case {i}: the {key}{f' {j}' if isinstance(where, list) else ''} "
                                            f"is on {w}, expected the inputs' device")


@pytest.mark.task("scaled_mul")
def test_scaled_mul_off_default_device(student, gen):
    """ScaledMul's output and gradients stay on the inputs' device (inputs off the default device, as on a GPU),
    for a random alpha and for alpha = 0, with one or both inputs requiring grad, and for an empty broadcast output
    (x (0, 3), y (3,): y's gradient is a (3,) tensor of zeros, on y's device too)"""
    alpha = float(torch.empty((), dtype=f64).uniform_(0.5, 2.0, generator=gen))
    cases = [([rand(gen, 3, 1), rand(gen, 4)], (alpha,)), ([rand(gen, 2, 3), rand(gen, 3)], (0.0,)),
             ([rand(gen, 2, 3), rand(gen, 3, grad=False)], (0.0,)), ([rand(gen, 4, grad=False), rand(gen, 4)], (alpha,)),
             ([rand(gen, 0, 3), rand(gen, 3)], (alpha,))]
    r = student.call("function_devices", name="ScaledMul", cases=cases)
    expect_on_inputs_device(r, f"ScaledMul.apply(x, y, alpha) for alpha in ({alpha:.3f}, 0.0) with x and y on a "
                               f"non-default device (case 4: x (0, 3), y (3,), an empty output; the gradients of an "
                               f"empty output are zeros, which sum_to_size makes on the inputs' device)", len(cases))


@pytest.mark.task("softplus")
def test_softplus_off_default_device(student, gen):
    """StableSoftplus's output and gradient stay on the input's device (an input off the default device, as on a
    GPU)"""
    cases = [([rand(gen, 3, 4)], ()), ([rand(gen, 5, dtype=torch.float32)], ()), ([rand(gen)], ())]
    r = student.call("function_devices", name="StableSoftplus", cases=cases)
    expect_on_inputs_device(r, "StableSoftplus.apply(x) for x (float64 (3, 4), float32 (5,), 0-dim) on a "
                               "non-default device", len(cases))


@pytest.mark.task("logcosh")
def test_logcosh_off_default_device(student, gen):
    """LogCosh's output, gradient and second derivative stay on the input's device (an input off the default
    device, as on a GPU)"""
    cases = [([rand(gen, 3, 4)], ()), ([rand(gen, 5, dtype=torch.float32)], ())]
    r = student.call("function_devices", name="LogCosh", cases=cases, second=True)
    expect_on_inputs_device(r, "LogCosh.apply(x), its gradient and the gradient's derivative (create_graph=True) "
                               "for x (float64 (3, 4), float32 (5,)) on a non-default device", len(cases))


@pytest.mark.task("clamp")
def test_clamp_off_default_device(student, gen):
    """Clamp's output and gradient stay on the input's device (an input off the default device, as on a GPU)"""
    lo = -float(torch.empty((), dtype=f64).uniform_(0.1, 0.9, generator=gen))
    hi = float(torch.empty((), dtype=f64).uniform_(0.1, 0.9, generator=gen))
    cases = [([rand(gen, 3, 4)], (lo, hi)), ([rand(gen, 6, dtype=torch.float32)], (lo, hi))]
    r = student.call("function_devices", name="Clamp", cases=cases)
    expect_on_inputs_device(r, f"Clamp.apply(x, {lo:.3f}, {hi:.3f}) for x (float64 (3, 4), float32 (6,)) on a "
                               f"non-default device", len(cases))


@pytest.mark.task("clamp")
def test_clamp_nodes_keep_their_own_bounds(student, gen):
    """Clamp: two nodes built with different bounds before one backward each clamp, and pass gradient, by their
    own lo and hi (values between the two pairs of bounds and at all four of them)"""
    lo1 = -float(torch.empty((), dtype=f64).uniform_(0.2, 0.6, generator=gen))
    hi1 = float(torch.empty((), dtype=f64).uniform_(0.2, 0.6, generator=gen))
    lo2 = lo1 - float(torch.empty((), dtype=f64).uniform_(0.5, 1.0, generator=gen))
    hi2 = hi1 + float(torch.empty((), dtype=f64).uniform_(0.5, 1.0, generator=gen))
    bounds = [(lo1, hi1), (lo2, hi2)]
    marks = torch.tensor([lo1, hi1, lo2, hi2, (lo1 + lo2) / 2, (hi1 + hi2) / 2, 0.0], dtype=f64)
    if float(torch.rand((), generator=gen)) < 0.5:
        bounds.reverse()  # the narrower pair first or second: a class attribute keeps the last one
    xs = [torch.cat([torch.randn(8, generator=gen, dtype=f64) * 1.5, marks]).requires_grad_(True) for _ in bounds]
    v = [torch.randn(15, generator=gen, dtype=f64) for _ in bounds]
    got = student.call("two_nodes_vjp", name="Clamp", first=([xs[0]], bounds[0]), second=([xs[1]], bounds[1]), v=v)
    what = (f"out1 = Clamp.apply(x1, {bounds[0][0]:.3f}, {bounds[0][1]:.3f}) and out2 = Clamp.apply(x2, "
            f"{bounds[1][0]:.3f}, {bounds[1][1]:.3f}) built one after the other, then one backward through both")
    expect(isinstance(got, list) and len(got) == 2, f"{what}: expected two nodes' results back, got "
                                                    f"{len(got) if isinstance(got, list) else type(got).__name__}")
    for i, (x, (lo, hi), w, r) in enumerate(zip(xs, bounds, v, got), start=1):
        xr = x.detach().clone().requires_grad_(True)
        want_out = torch.clamp(xr, lo, hi)
        (want,) = torch.autograd.grad(want_out, xr, w)
        expect_close(r["out"], want_out.detach(), f"{what}: out{i}", atol=0, rtol=0)
        grads = r.get("grads")
        expect(isinstance(grads, list) and len(grads) == 1, f"{what}: expected one gradient for x{i}, got {grads!r}")
        expect_close(grads[0], want, f"{what}: the gradient for x{i} (each node's backward must use the bounds of "
                     f"its own call, ({lo:.3f}, {hi:.3f}): keep them, or the mask, on ctx, not on the class or in a "
                     f"global)", atol=0, rtol=0)


def _leaves_input_unchanged(student, gen, name, in_place):
    x = torch.cat([torch.randn(10, generator=gen, dtype=f64) * 5, torch.tensor([-3.0, 0.0, -0.0, 2.0], dtype=f64)])
    for needs_grad in (True, False):
        after = student.call("apply_then_inputs", name=name, inputs=[x.clone().requires_grad_(needs_grad)])
        expect(isinstance(after, list) and len(after) == 1, f"{name}.apply(x): expected x back, got "
               f"{len(after) if isinstance(after, list) else type(after).__name__}")
        expect_close(after[0], x, f"x after {name}.apply(x) for x = {[round(v, 3) for v in x.tolist()]} "
                     f"(requires_grad={needs_grad}): your forward changed its input in place ({in_place}); compute "
                     f"them as new tensors", atol=0, rtol=0)


@pytest.mark.task("softplus")
def test_softplus_leaves_its_input_unchanged(student, gen):
    """StableSoftplus.apply(x) leaves x as it was, like F.softplus (no clamp_ / abs_ on the input)"""
    _leaves_input_unchanged(student, gen, "StableSoftplus", "x.clamp_, x.abs_, out= into x: max(x, 0) and |x|")


@pytest.mark.task("logcosh")
def test_logcosh_leaves_its_input_unchanged(student, gen):
    """LogCosh.apply(x) leaves x as it was, like torch.log(torch.cosh(x)) (no abs_ on the input)"""
    _leaves_input_unchanged(student, gen, "LogCosh", "x.abs_, mul_: |x| and its products")


@pytest.mark.task("scaled_mul")
def test_scaled_mul_integer_inputs(student, gen):
    """ScaledMul on two integer tensors (which need no gradient) returns alpha * x * y as PyTorch computes it: a
    floating-point product (an in-place mul_ of the integer x * y by the float alpha raises) in torch's default
    dtype (also under torch.set_default_dtype(torch.float64), where alpha * x * y is float64)"""
    x = torch.randint(-5, 6, (3, 1), generator=gen)
    y = torch.randint(-5, 6, (4,), generator=gen)
    alpha = 1.5 + float(torch.rand((), generator=gen))
    outs = student.call("apply_under_default_dtypes", name="ScaledMul", inputs=[x, y], extra=(alpha,),
                        dtype_names=["float32", "float64"])
    expect(isinstance(outs, list) and len(outs) == 2, f"ScaledMul on integer tensors under two default dtypes: "
           f"expected two outputs back, got {outs!r}"[:300])
    old = torch.get_default_dtype()
    for got, default in zip(outs, (torch.float32, torch.float64)):
        torch.set_default_dtype(default)
        try:
            want = alpha * x * y
        finally:
            torch.set_default_dtype(old)
        expect_close(got, want, f"ScaledMul.apply(x, y, {alpha!r}) for int64 x of shape (3, 1) and y of shape (4,) "
                     f"under torch.set_default_dtype({default}) (tensors of any dtype: the result is alpha * x * y, a "
                     f"{default} tensor; an integer input cast with .float() ignores the default dtype)", atol=0,
                     rtol=1e-6 if default == torch.float32 else 1e-15, check_dtype=True)  # (x * y) * alpha rounds apart


@pytest.mark.task("clamp")
@pytest.mark.parametrize("case", ["tiny_bounds", "float32_bounds", "infinite_lo"])
def test_clamp_narrow_bounds_and_float32_kinks(student, gen, case):
    """Clamp matches torch.clamp's gradient for bounds near the bottom of float64 (lo = 0, hi = 1e-200: the mask
    is a comparison, no product of differences, which underflows), for a float32 x at bounds float32 cannot
    hold (the comparison in x's dtype, as torch.clamp makes it), and for lo = -inf (no midpoint (lo + hi) / 2 or
    width hi - lo, which are infinite)"""
    if case == "tiny_bounds":
        lo, hi, dtype = 0.0, 1e-200, f64
        inside = torch.rand(6, generator=gen, dtype=f64) * 0.98e-200 + 1e-202
        x = torch.cat([inside, torch.tensor([lo, hi, -1.0, 2e-200, 1e-210], dtype=f64)])
    elif case == "infinite_lo":  # lo = -inf is a float below hi: every finite x < hi is strictly inside
        lo, hi, dtype = -math.inf, 0.5, f64
        inside = torch.randn(6, generator=gen, dtype=f64) - 1.0
        x = torch.cat([inside.clamp(max=0.25), torch.tensor([-math.inf, hi, 3.0, -1e300], dtype=f64)])
    else:
        lo, hi, dtype = 0.1, 0.3, torch.float32
        inside = torch.rand(6, generator=gen, dtype=f64) * 0.19 + 0.105
        x = torch.cat([inside, torch.tensor([lo, hi, 0.0, 0.5], dtype=f64)]).to(dtype)
    x = x.requires_grad_(True)
    v = torch.randn(x.shape, generator=gen, dtype=f64).to(dtype)
    r = student.call("function_vjp", name="Clamp", inputs=[x], v=v, extra=(lo, hi))
    xr = x.detach().clone().requires_grad_(True)
    want_out = torch.clamp(xr, lo, hi)
    (want,) = torch.autograd.grad(want_out, xr, v)
    what = f"Clamp.apply(x, {lo!r}, {hi!r}) for {dtype} x = {x.tolist()}"
    expect_close(r["out"], want_out.detach(), what, atol=0, rtol=0, check_dtype=True)
    expect_grad_list(r, 1, what)
    expect_close(r["grads"][0], want, f"the gradient of {what} (torch.clamp passes grad_out exactly where lo < x < "
                 f"hi, compared in x's dtype)", atol=0, rtol=0)

