"""Hidden checks for clip_grad_norm / clip_grad_value (15-04, judge side)."""
import math

import pytest
import torch
from hypothesis import HealthCheck, given, settings, strategies as st

from course.judge.expect import expect, expect_close, fail
from course.judge.strategies import relayout

f64 = torch.float64
CN, CV = "clip_grad_norm", "clip_grad_value"
SHAPES = [(3, 4), (5,), (2, 2, 3), (4,), (1,)]


def make_grads(gen, shapes, none_at=(), scale=1.0, dtype=f64):
    return [None if i in none_at else scale * torch.randn(s, generator=gen, dtype=dtype) for i, s in enumerate(shapes)]


def torch_clip_norm(shapes, grads, max_norm, norm_type):
    ps = []
    for s, g in zip(shapes, grads):
        p = torch.zeros(s, dtype=g.dtype if g is not None else f64, requires_grad=True)
        if g is not None:
            p.grad = g.clone()
        ps.append(p)
    total = torch.nn.utils.clip_grad_norm_(ps, max_norm, norm_type=norm_type)
    return float(total), [p.grad for p in ps]


def check_grads(got, want, what, atol=1e-12, rtol=1e-9):
    for i, (g, w) in enumerate(zip(got, want)):
        if w is None:
            expect(g is None, f"{what}: parameter {i} had no .grad and must keep none, but now has one")
            continue
        if g is None:
            fail(f"{what}: parameter {i}'s .grad disappeared (was a tensor, now None)")
        expect_close(g, w, f"{what}, .grad of parameter {i} (shape {tuple(w.shape)})", atol=atol, rtol=rtol)


def returned_norm(r, what):
    """The returned norm as a float for value checks (its type is judged by test_clip_norm_return_type)."""
    ret = r["ret"]
    if isinstance(ret, torch.Tensor) and ret.numel() == 1:
        return float(ret.reshape(()))
    if isinstance(ret, (int, float)) and not isinstance(ret, bool):
        return float(ret)
    fail(f"{what}: must return the total norm as a 0-dim tensor or a float, returned "
         f"{r.get('ret_type', type(ret).__name__)} {str(ret)[:80]}")


def check_in_place(r, what):
    for i, same in enumerate(r["identity"]):
        if same is None:
            continue
        expect(same["object"], f"{what}: parameter {i}'s .grad is a different tensor object after the call; "
                               f"clip the existing .grad in place (e.g. g.mul_(...) / g.clamp_(...)), do not "
                               f"assign a new tensor to p.grad")
        expect(same["memory"], f"{what}: parameter {i}'s .grad now points at different memory (was .grad.data "
                               f"reassigned?); clip the existing gradient tensor in place")


def norm_str(t):
    return "inf" if t == math.inf else f"{t:g}"


@pytest.mark.task("clip_grad_norm")
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1), norm_type=st.sampled_from([2.0, 1.0, 3.0, math.inf]),
       factor=st.sampled_from([0.01, 0.3, 0.9, 1.5, 100.0]), none_at=st.sampled_from([(), (1,), (0, 3)]))
def test_clip_norm_matches_torch(student, seed, norm_type, factor, none_at):
    """clip_grad_norm matches torch.nn.utils.clip_grad_norm_ (gradients and returned pre-clip norm)"""
    gen = torch.Generator().manual_seed(seed)
    grads = make_grads(gen, SHAPES, none_at)
    present = [g for g in grads if g is not None]
    true_norm = float(torch.linalg.vector_norm(torch.cat([g.flatten() for g in present]), norm_type))
    max_norm = factor * true_norm
    total, want = torch_clip_norm(SHAPES, grads, max_norm, norm_type)
    what = (f"{CN}(params, max_norm={max_norm:.4g}, norm_type={norm_str(norm_type)}) on {len(SHAPES)} parameters "
            f"(total norm {total:.4g}{', some without .grad' if none_at else ''}; params given as a generator)")
    r = student.call("clip_norm_run", shapes=SHAPES, grads=grads, max_norm=max_norm, norm_type=norm_type)
    check_grads(r["grads"], want, what)
    got = returned_norm(r, what)
    expect(abs(got - total) <= 1e-9 * max(1.0, total),
           f"{what}: must return the total norm BEFORE clipping, {total:.6g}, returned {got:.6g}")


@pytest.mark.task("clip_grad_norm")
@pytest.mark.parametrize("how", ["filter", "map", "iter", "tuple"])
def test_clip_norm_any_iterable(student, gen, how):
    """clip_grad_norm accepts any iterable of parameters, not only a list or a generator: a filter(...), map(...)
    or iter(...) object (one pass only, like a generator) and a tuple"""
    grads = make_grads(gen, SHAPES, (1,), scale=2.0)
    total, want = torch_clip_norm(SHAPES, grads, 0.5, 2.0)
    shown = {"filter": "filter(lambda p: p.requires_grad, params)", "map": "map(f, params)",
             "iter": "iter(params)", "tuple": "tuple(params)"}[how]
    what = f"{CN}({shown}, max_norm=0.5) on {len(SHAPES)} parameters (total norm {total:.4g})"
    r = student.call("clip_norm_run", shapes=SHAPES, grads=grads, max_norm=0.5, norm_type=2.0, how=how)
    check_grads(r["grads"], want, what + (" (a one-shot iterator, like a generator, can be read only once: turn "
                                          "any iterable into a list first, not only generators)"
                                          if how != "tuple" else ""))
    got = returned_norm(r, what)
    expect(abs(got - total) <= 1e-9 * max(1.0, total),
           f"{what}: must return the total norm BEFORE clipping, {total:.6g}, returned {got:.6g}")


@pytest.mark.task("clip_grad_norm")
def test_clip_norm_is_global(student, gen):
    """clip_grad_norm rescales all gradients by one common factor (global norm, not per parameter)"""
    shapes = [(3,), (3,)]
    grads = [torch.tensor([3.0, 0.0, 4.0], dtype=f64), 0.01 * torch.randn(3, generator=gen, dtype=f64)]
    total, want = torch_clip_norm(shapes, grads, 1.0, 2.0)
    what = f"{CN}(params, max_norm=1.0) with gradients of norms 5 and {float(grads[1].norm()):.3g}"
    r = student.call("clip_norm_run", shapes=shapes, grads=grads, max_norm=1.0, norm_type=2.0, how="list")
    check_grads(r["grads"], want, what + " (all gradients share one scale factor max_norm/(total_norm+1e-6); "
                                         "small gradients shrink too)")


@pytest.mark.task("clip_grad_norm")
def test_clip_norm_never_scales_up(student, gen):
    """clip_grad_norm leaves gradients untouched when their total norm is below max_norm"""
    grads = make_grads(gen, SHAPES, (2,), scale=0.01)
    total, want = torch_clip_norm(SHAPES, grads, 10.0, 2.0)
    r = student.call("clip_norm_run", shapes=SHAPES, grads=grads, max_norm=10.0, norm_type=None, how="list")
    what = f"{CN}(params, max_norm=10.0) with total norm {total:.3g} (well below max_norm; default norm_type)"
    check_grads(r["grads"], want, what + " (the scale factor is capped at 1)", atol=0, rtol=1e-12)
    got = returned_norm(r, what)
    expect(abs(got - total) <= 1e-9, f"{what}: must return the total norm {total:.6g}, returned {got:.6g}")


@pytest.mark.task("clip_grad_norm")
def test_clip_norm_small_norm_uses_eps(student, gen):
    """clip_grad_norm uses the scale factor max_norm / (total_norm + 1e-6), as PyTorch does, also for a total norm
    just below max_norm (where the factor is still below 1)"""
    grads = make_grads(gen, SHAPES[:2], scale=1e-4)
    total, want = torch_clip_norm(SHAPES[:2], grads, 1e-5, 2.0)
    r = student.call("clip_norm_run", shapes=SHAPES[:2], grads=grads, max_norm=1e-5, norm_type=2.0)
    check_grads(r["grads"], want, f"{CN}(params, max_norm=1e-5) with a tiny total norm {total:.3g} "
                                  f"(the 1e-6 in the denominator matters here)", atol=1e-15, rtol=1e-9)
    # a total norm just below max_norm (0.95e-5 against 1e-5): the factor max_norm / (total + 1e-6) is still
    # below 1 (about 0.95), so clip_grad_norm_ scales; it never asks whether the norm exceeds max_norm
    grads = [g / total * 0.95e-5 for g in grads]
    total, want = torch_clip_norm(SHAPES[:2], grads, 1e-5, 2.0)
    r = student.call("clip_norm_run", shapes=SHAPES[:2], grads=grads, max_norm=1e-5, norm_type=2.0)
    check_grads(r["grads"], want, f"{CN}(params, max_norm=1e-5) with a total norm {total:.4g}, below max_norm "
                                  f"(the factor min(1, max_norm / (total_norm + 1e-6)) is {1e-5 / (total + 1e-6):.4f} "
                                  f"here: clip_grad_norm_ applies it always, with no `if total > max_norm`)",
                atol=1e-15, rtol=1e-9)


@pytest.mark.task("clip_grad_norm")
@pytest.mark.parametrize("case", ["single tensor", "single tensor, norm_type=inf", "float32 gradients",
                                  "float16 and bfloat16 gradients"])
def test_clip_norm_edge_cases(student, gen, case):
    """clip_grad_norm: a single tensor as `parameters` (also with the inf-norm), float32 gradients, float16 and
    bfloat16 gradients of a few hundred (their squares overflow float16)"""
    norm_type = math.inf if case == "single tensor, norm_type=inf" else 2.0
    if case.startswith("single tensor"):
        shapes, grads, how = [(4, 3)], [5 * torch.randn(4, 3, generator=gen, dtype=f64)], "single"
    elif case == "float32 gradients":
        shapes, grads, how = SHAPES, make_grads(gen, SHAPES, (1,), scale=3.0, dtype=torch.float32), "generator"
    else:
        # entries of 256 to 512 in float16: |g|^2 overflows float16 (max 65504), while clip_grad_norm_'s
        # vector_norm accumulates in float32 and its per-tensor norms (below 2000) fit
        shapes, how = [(3, 4), (5,), (2, 3)], "generator"
        sign = lambda s: torch.where(torch.rand(s, generator=gen) < 0.5, -1.0, 1.0)  # noqa: E731
        grads = [(sign(s) * (256 + 256 * torch.rand(s, generator=gen))).to(dt)
                 for s, dt in zip(shapes, (torch.float16, torch.bfloat16, torch.float16))]
    total, want = torch_clip_norm(shapes, grads, 1.0, norm_type)
    what = f"{CN}(params, max_norm=1.0, norm_type={norm_str(norm_type)}) with {case}"
    if case == "float16 and bfloat16 gradients":
        what += (" (compute each tensor's norm with torch.linalg.vector_norm, as clip_grad_norm_ does; "
                 "(g ** 2).sum() in float16 overflows to inf)")
    r = student.call("clip_norm_run", shapes=shapes, grads=grads, max_norm=1.0, norm_type=norm_type, how=how)
    tol = {"float32 gradients": 1e-5, "float16 and bfloat16 gradients": 1e-2}.get(case, 1e-10)
    check_grads(r["grads"], want, what, atol=tol, rtol=tol)
    got = returned_norm(r, what)
    expect(abs(got - total) <= tol * max(1.0, total) and math.isfinite(got),
           f"{what}: must return the total norm {total:.6g}, returned {got:.6g}")


@pytest.mark.task("clip_grad_norm")
def test_clip_norm_inf_as_string(student, gen):
    """clip_grad_norm accepts norm_type='inf' (the string), as clip_grad_norm_ does: the largest absolute entry"""
    grads = make_grads(gen, SHAPES, (1,), scale=2.0)
    total, want = torch_clip_norm(SHAPES, grads, 0.5, "inf")
    what = (f"{CN}(params, max_norm=0.5, norm_type='inf') (the text: 'norm_type a number or the string \'inf\'', "
            f"as for clip_grad_norm_, which converts it with float(norm_type))")
    r = student.call("clip_norm_run", shapes=SHAPES, grads=grads, max_norm=0.5, norm_type="inf", how="list")
    check_grads(r["grads"], want, what)
    got = returned_norm(r, what)
    expect(abs(got - total) <= 1e-12 * max(1.0, total), f"{what}: must return the largest absolute entry "
                                                        f"{total:.6g}, returned {got:.6g}")


@pytest.mark.task("clip_grad_norm")
@pytest.mark.parametrize("norm_type", [-math.inf, 0.5, -1.0], ids=["minus-inf", "half", "minus-one"])
def test_clip_norm_other_norm_types(student, gen, norm_type):
    """clip_grad_norm with other non-zero numbers vector_norm takes as norm_type (-inf: the smallest absolute
    entry, 0.5, -1) matches clip_grad_norm_ (gradients and returned pre-clip norm)"""
    grads = make_grads(gen, SHAPES, (1,), scale=2.0)
    max_norm = 0.5 * torch_clip_norm(SHAPES, grads, math.inf, norm_type)[0]  # half the total: the factor is ~0.5
    total, want = torch_clip_norm(SHAPES, grads, max_norm, norm_type)
    what = (f"{CN}(params, max_norm={max_norm:.4g}, norm_type={norm_type}) on {len(SHAPES)} parameters, one without "
            f".grad (clip_grad_norm_ gives {total:.6g}; the text: 'norm_type a non-zero number (inf the largest "
            f"absolute entry, -inf the smallest, as in torch.linalg.vector_norm)': math.isinf(norm_type) is true "
            f"for -inf too)")
    r = student.call("clip_norm_run", shapes=SHAPES, grads=grads, max_norm=max_norm, norm_type=norm_type,
                     how="list")
    got = returned_norm(r, what)
    expect(abs(got - total) <= 1e-9 * max(1.0, total),
           f"{what}: must return the total norm before clipping, {total:.6g}, returned {got:.6g}")
    check_grads(r["grads"], want, what)


@pytest.mark.task("clip_grad_norm")
@pytest.mark.parametrize("norm_type", [2.0, math.inf], ids=["2", "inf"])
def test_clip_norm_mixed_dtypes(student, gen, norm_type):
    """clip_grad_norm on parameters of different dtypes (float16 first, then float64 and float32) matches
    clip_grad_norm_, which combines the per-tensor norms in the widest of their dtypes"""
    shapes = [(3,), (2, 2), (4,)]
    dtypes = [torch.float16, f64, torch.float32]
    grads = [(2 * torch.randn(sh, generator=gen, dtype=f64)).to(dt) for sh, dt in zip(shapes, dtypes)]
    # float64 entries of 1e5 to 2e5 in size: its 2-norm and inf-norm do not fit float16 (max 65504)
    grads[1] = torch.where(grads[1] < 0, -1.0, 1.0) * (1e5 + 1e5 * torch.rand((2, 2), generator=gen, dtype=f64))
    total, want = torch_clip_norm(shapes, grads, 5e4, norm_type)
    what = (f"{CN}(params, max_norm=5e4, norm_type={norm_str(norm_type)}) on a float16, a float64 and a float32 "
            f"gradient, the float64 one of entries of 1e5 to 2e5 (clip_grad_norm_ gives {total:.6g}: the text's "
            f"parameters are any tensors; combine the per-tensor norms without casting them to the first gradient's "
            f"dtype, where 1e5 overflows float16)")
    r = student.call("clip_norm_run", shapes=shapes, grads=grads, max_norm=5e4, norm_type=norm_type, how="list")
    got = returned_norm(r, what)
    expect(math.isfinite(got) and abs(got - total) <= 1e-6 * total,
           f"{what}: must return the total norm before clipping, {total:.6g}, returned {got:.6g}")
    for i, (g, w) in enumerate(zip(r["grads"], want)):
        if g is None:
            fail(f"{what}: parameter {i}'s .grad disappeared")
        tol = 2e-3 if w.dtype == torch.float16 else 1e-6
        expect(g.dtype == w.dtype, f"{what}: parameter {i}'s .grad changed dtype from {w.dtype} to {g.dtype}")
        expect_close(g.double(), w.double(), f"{what}, .grad of parameter {i} ({w.dtype}; clip_grad_norm_ scales "
                                             f"it by {min(1.0, 5e4 / (total + 1e-6)):.4g})", atol=tol, rtol=tol)


@pytest.mark.task("clip_grad_norm")
def test_clip_norm_zero_max_norm(student, gen):
    """clip_grad_norm with max_norm=0 scales every gradient by 0, as clip_grad_norm_ does: the factor
    min(1, 0 / (total_norm + 1e-6)) is 0, and a zero max_norm does not switch clipping off"""
    grads = make_grads(gen, SHAPES, (1,), scale=2.0)
    total, want = torch_clip_norm(SHAPES, grads, 0.0, 2.0)
    what = (f"{CN}(params, max_norm=0.0) on {len(SHAPES)} parameters (total norm {total:.4g}; the factor "
            f"min(1, max_norm / (total_norm + 1e-6)) is 0, so every gradient becomes 0)")
    r = student.call("clip_norm_run", shapes=SHAPES, grads=grads, max_norm=0.0, norm_type=2.0, how="list")
    check_grads(r["grads"], want, what, atol=0, rtol=0)
    got = returned_norm(r, what)
    expect(abs(got - total) <= 1e-9 * max(1.0, total),
           f"{what}: must return the total norm BEFORE clipping, {total:.6g}, returned {got:.6g}")


@pytest.mark.task("clip_grad_norm")
def test_clip_norm_in_place(student, gen):
    """clip_grad_norm scales the existing .grad tensors in place (same tensor objects, same memory)"""
    grads = make_grads(gen, SHAPES, (1,), scale=5.0)
    what = f"{CN}(params, max_norm=0.5) on {len(SHAPES)} parameters (norm well above max_norm)"
    r = student.call("clip_norm_run", shapes=SHAPES, grads=grads, max_norm=0.5, norm_type=2.0, how="list")
    check_in_place(r, what)
    check_grads(r["grads"], torch_clip_norm(SHAPES, grads, 0.5, 2.0)[1], what)


LAYOUT_SHAPES = [((3, 4), "transposed"), ((5, 6), "strided"), ((2, 2, 3), "offset"), ((2, 3, 4, 5), "channels_last")]


@pytest.mark.task("clip_grad_norm")
def test_clip_norm_any_layout(student, gen):
    """clip_grad_norm accepts gradients in any memory layout (transposed, strided, offset, channels-last), as
    clip_grad_norm_ does"""
    shapes = [s for s, _ in LAYOUT_SHAPES]
    grads = [relayout(3 * torch.randn(s, generator=gen, dtype=f64), lay) for s, lay in LAYOUT_SHAPES]
    total, want = torch_clip_norm(shapes, grads, 1.0, 2.0)
    what = (f"{CN}(params, max_norm=1.0) on parameters whose .grad tensors are not contiguous ("
            + ", ".join(f"{s}: {lay}" for s, lay in LAYOUT_SHAPES) + "; a Parameter made from a transposed "
            "tensor gets such a gradient, so flatten with reshape, not view)")
    r = student.call("clip_norm_run", shapes=shapes, grads=grads, max_norm=1.0, norm_type=2.0, how="list",
                     keep_layout=True)
    check_in_place(r, what)
    check_grads(r["grads"], want, what)
    got = returned_norm(r, what)
    expect(abs(got - total) <= 1e-9 * max(1.0, total),
           f"{what}: must return the total norm before clipping, {total:.6g}, returned {got:.6g}")


@pytest.mark.task("clip_grad_norm")
@pytest.mark.parametrize("case", ["one-item list", "one-element tensor"])
def test_clip_norm_one_parameter(student, gen, case):
    """clip_grad_norm with a single parameter: a one-item list, or a single tensor of one element"""
    shapes, how = ONE_PARAM[case]
    grads = make_grads(gen, shapes, scale=4.0)
    total, want = torch_clip_norm(shapes, grads, 0.5, 2.0)
    what = f"{CN}(params, max_norm=0.5) with params given as a {case} of shape {shapes[0]} (total norm {total:.4g})"
    r = student.call("clip_norm_run", shapes=shapes, grads=grads, max_norm=0.5, norm_type=2.0, how=how)
    check_grads(r["grads"], want, what)
    got = returned_norm(r, what)
    expect(abs(got - total) <= 1e-9 * max(1.0, total),
           f"{what}: must return the total norm before clipping, {total:.6g}, returned {got:.6g}")


@pytest.mark.task("clip_grad_norm")
def test_clip_norm_return_type(student, gen):
    """clip_grad_norm returns the total norm as a 0-dim tensor or a Python float"""
    shapes, grads = SHAPES[:3], make_grads(gen, SHAPES[:3], scale=2.0)
    what = f"{CN}(params, max_norm=1.0) with gradients"
    r = student.call("clip_norm_run", shapes=shapes, grads=grads, max_norm=1.0, norm_type=2.0, how="list")
    ret = r["ret"]
    if isinstance(ret, torch.Tensor):
        expect(ret.dim() == 0, f"{what}: returned a tensor of shape {tuple(ret.shape)}; the total norm must be a "
                               f"0-dim tensor (or a Python float)")
    else:
        expect(isinstance(ret, float), f"{what}: must return the total norm as a 0-dim tensor or a Python float, "
                                       f"returned {r['ret_type']} {str(ret)[:80]}")
    total = torch_clip_norm(shapes, grads, 1.0, 2.0)[0]
    expect(abs(float(ret) - total) <= 1e-9 * max(1.0, total),
           f"{what}: must return the total norm {total:.6g}, returned {float(ret):.6g}")


@pytest.mark.task("clip_grad_norm")
@pytest.mark.parametrize("bad", ["nan", "inf"])
@pytest.mark.parametrize("norm_type", [2.0, math.inf], ids=["2", "inf"])
def test_clip_norm_non_finite(student, gen, bad, norm_type):
    """clip_grad_norm with a non-finite gradient entry (nan or inf) matches clip_grad_norm_ (its default
    error_if_nonfinite=False): a nan or inf total norm, and every gradient scaled by the factor it gives, for the
    2-norm and the inf-norm, the bad entry in a later parameter than the first"""
    shapes = SHAPES[:3]
    grads = make_grads(gen, shapes, scale=2.0)
    # in a later parameter: Python's max() over per-tensor norms skips a nan that is not first (nan > x is False)
    k = 1 + int(torch.randint(0, 2, (1,), generator=gen))
    grads[k].view(-1)[int(torch.randint(0, grads[k].numel(), (1,), generator=gen))] = float(bad)
    total, want = torch_clip_norm(shapes, grads, 1.0, norm_type)
    what = (f"{CN}(params, max_norm=1.0, norm_type={norm_str(norm_type)}) with one entry {bad} in the gradient of "
            f"parameter {k} (total norm {total}; the per-tensor norms are combined with torch ops such as "
            f"torch.stack(...).max(), which carry a nan, not Python's max())")
    r = student.call("clip_norm_run", shapes=shapes, grads=grads, max_norm=1.0, norm_type=norm_type, how="list")
    for i, (g, w) in enumerate(zip(r["grads"], want)):
        if g is None:
            fail(f"{what}: parameter {i}'s .grad disappeared")
        expect_close(g, w, f"{what}, .grad of parameter {i} (clip_grad_norm_ multiplies by "
                           f"clamp(max_norm / (total + 1e-6), max=1), which is {'nan' if bad == 'nan' else '0'} "
                           f"here: no `if total > max_norm` that a nan skips)", atol=1e-12, rtol=1e-9, equal_nan=True)
    got = returned_norm(r, what)
    expect(math.isnan(got) if bad == "nan" else got == math.inf,
           f"{what}: must return the total norm before clipping, {total}, returned {got}")


@pytest.mark.task("clip_grad_norm")
def test_clip_norm_frozen_params_with_grad(student, gen):
    """clip_grad_norm counts and scales a parameter with requires_grad=False that still has a .grad, as
    clip_grad_norm_ does (it looks only at .grad)"""
    grads = make_grads(gen, SHAPES, (3,), scale=3.0)
    frozen = (0, 2)
    ps = []
    for i, (s, g) in enumerate(zip(SHAPES, grads)):
        p = torch.zeros(s, dtype=f64, requires_grad=i not in frozen)
        p.grad = None if g is None else g.clone()
        ps.append(p)
    total = float(torch.nn.utils.clip_grad_norm_(ps, 0.5))
    what = (f"{CN}(params, max_norm=0.5) where parameters {list(frozen)} have requires_grad=False but a .grad "
            f"(frozen after a backward; total norm {total:.4g})")
    r = student.call("clip_norm_run", shapes=SHAPES, grads=grads, max_norm=0.5, norm_type=2.0, frozen=list(frozen),
                     how="list")
    check_grads(r["grads"], [p.grad for p in ps], what)
    got = returned_norm(r, what)
    expect(abs(got - total) <= 1e-9 * max(1.0, total),
           f"{what}: must return the total norm before clipping, {total:.6g}, returned {got:.6g}")


@pytest.mark.task("clip_grad_norm", weight=0.1)  # its right answer is a constant (0, nothing changed): worth little
def test_clip_norm_without_gradients(student, gen):
    """clip_grad_norm with parameters without any .grad (or none at all) returns 0 (a 0-dim tensor or a number) and
    changes nothing"""
    for shapes, label in (([(3,), (2,)], "no gradients at all"), ([], "an empty list of parameters")):
        what = f"{CN}(params, max_norm=1.0) with {label}"
        r = student.call("clip_norm_run", shapes=shapes, grads=[None] * len(shapes), max_norm=1.0, norm_type=2.0,
                         how="list")
        check_grads(r["grads"], [None] * len(shapes), what)
        ret = r["ret"]
        if isinstance(ret, torch.Tensor):
            expect(ret.dim() == 0 and float(ret) == 0, f"{what}: must return 0, returned a tensor {str(ret)[:80]}")
        else:
            expect(isinstance(ret, (int, float)) and not isinstance(ret, bool) and ret == 0,
                   f"{what}: must return 0 (a 0-dim tensor or a number), returned {r['ret_type']} {str(ret)[:80]}")


@pytest.mark.task("clip_grad_norm")
def test_clip_norm_on_another_device(student, gen):
    """clip_grad_norm runs where the gradients are: on gradients on a device other than the default (meta, a
    stand-in for a GPU) the returned norm is a 0-dim tensor there, and no tensor it builds is left elsewhere"""
    shapes, norm_type = SHAPES[:3], 2.0
    grads = make_grads(gen, shapes, scale=3.0)
    what = (f"{CN}(params, max_norm=0.5) with the .grad tensors on the meta device "
            f"(the grader's stand-in for a GPU: a tensor made without device= lands elsewhere, as on a GPU; "
            f"'Same semantics as torch.nn.utils.clip_grad_norm_', which runs where the gradients are)")
    r = student.call("clip_norm_on_meta", shapes=shapes, grads=grads, max_norm=0.5, norm_type=norm_type)
    if "error" in r:
        fail(f"{what}: raised {r['error']} (build every tensor on the gradients' device, e.g. "
             f"torch.zeros((), device=g.device), or combine the per-tensor norms with torch.stack)")
    for i, dev in enumerate(r["grad_devices"]):
        expect(dev == "meta", f"{what}: parameter {i}'s .grad is on {dev} after the call, not where it was")
    if r["ret_type"] == "Tensor" or "device" in r:
        expect(r.get("device") == "meta" and r.get("shape") == [],
               f"{what}: the returned norm should be a 0-dim tensor on the gradients' device, got shape "
               f"{r.get('shape')} on {r.get('device')} (a total accumulated in a CPU tensor, say "
               f"torch.zeros(()) += ..., never sees the gradients there, and raises on a GPU)")
    elif r["home"] == "meta":
        fail(f"{what}: returned {r['ret_type']}, not a 0-dim tensor")
    if r["home"] == "cpu":  # the code read values: the gradients held them, so the numbers can be compared
        total, want = torch_clip_norm(shapes, grads, 0.5, norm_type)
        if r.get("ret") is not None:
            got = returned_norm({"ret": r["ret"], "ret_type": r["ret_type"]}, what)
            expect(abs(got - total) <= 1e-9 * max(1.0, total),
                   f"{what}: must return the total norm before clipping, {total:.6g}, returned {got:.6g}")
        check_grads(r["grads"], want, what)


@pytest.mark.task("clip_grad_norm")
def test_clip_norm_written_by_hand(student, gen):
    """clip_grad_norm computes the norm and scales the gradients itself: it calls neither
    torch.nn.utils.clip_grad_norm_ nor its halves get_total_norm / clip_grads_with_norm_, under any name"""
    grads = make_grads(gen, SHAPES, (1,), scale=2.0)
    total, want = torch_clip_norm(SHAPES, grads, 0.5, 2.0)
    what = f"{CN}(params, max_norm=0.5) on {len(SHAPES)} parameters (total norm {total:.4g})"
    r = student.call("clip_norm_run", shapes=SHAPES, grads=grads, max_norm=0.5, norm_type=2.0, how="list",
                     watch_library=True)
    calls = r.get("library_calls") or []
    expect(not calls, f"{what}: ran PyTorch's own clipping code from torch/nn/utils/clip_grad.py "
                      f"({', '.join(calls[:5])}); the text: 'The point is to write it yourself (do not call "
                      f"torch.nn.utils.clip_grad_norm_ or its two halves get_total_norm and clip_grads_with_norm_)'")
    check_grads(r["grads"], want, what)


# ------------------------------------------------------------------------- by value
ONE_PARAM = {"one-item list": ([(3, 4)], "list"), "one-element tensor": ([(1,)], "single")}


@pytest.mark.task("clip_grad_value")
@pytest.mark.parametrize("how", ["generator", "list", "single", "one-item list", "one-element tensor"])
def test_clip_value_matches_torch(student, gen, how):
    """clip_grad_value matches torch.nn.utils.clip_grad_value_ (generator, list or a single tensor, one
    parameter included; gradients in any memory layout: transposed, strided, offset)"""
    label = how
    shapes, how = ONE_PARAM.get(label, (SHAPES if label != "single" else SHAPES[:1], label))
    none_at = (1, 3) if len(shapes) > 1 else ()
    layouts = ("transposed", "strided", "offset")
    # gradients as the judge lays them out (a Parameter made from a transpose gets such a .grad): a clamp
    # through g.reshape(-1) or g.flatten() lands on a copy of a non-contiguous gradient
    grads = [None if g is None else relayout(g, layouts[i % 3])
             for i, g in enumerate(make_grads(gen, shapes, none_at, scale=2.0))]
    clip = float(torch.empty(()).uniform_(0.1, 1.5, generator=gen))
    ps = []
    for s, g in zip(shapes, grads):
        p = torch.zeros(s, dtype=f64, requires_grad=True)
        p.grad = None if g is None else g.clone()
        ps.append(p)
    torch.nn.utils.clip_grad_value_(ps, clip)
    want = [p.grad for p in ps]
    r = student.call("clip_value_run", shapes=shapes, grads=grads, clip_value=clip, how=how, keep_layout=True)
    what = f"{CV}(params, clip_value={clip:.3f}) with params given as a {label}" + \
        (f" (shape {shapes[0]})" if len(shapes) == 1 else "") + \
        (", some without .grad" if none_at else "") + \
        " (gradients not contiguous: transposed, strided, offset; clamp each .grad itself in place)"
    check_grads(r["grads"], want, what, atol=0, rtol=0)


@pytest.mark.task("clip_grad_value")
@pytest.mark.parametrize("how", ["list", "single"])
def test_clip_value_in_place(student, gen, how):
    """clip_grad_value clamps the existing .grad tensors in place (same tensor objects, same memory)"""
    shapes = SHAPES if how == "list" else SHAPES[:1]
    grads = make_grads(gen, shapes, (1,) if how == "list" else (), scale=3.0)
    what = f"{CV}(params, clip_value=0.5) with params given as a {how}"
    r = student.call("clip_value_run", shapes=shapes, grads=grads, clip_value=0.5, how=how)
    check_in_place(r, what)
    check_grads(r["grads"], [None if g is None else g.clamp(-0.5, 0.5) for g in grads], what, atol=0, rtol=0)


@pytest.mark.task("clip_grad_value")
def test_clip_value_frozen_params_with_grad(student, gen):
    """clip_grad_value clamps the .grad of a parameter with requires_grad=False too, as clip_grad_value_ does"""
    grads = make_grads(gen, SHAPES, (1,), scale=3.0)
    frozen = (0, 3)
    ps = []
    for i, (s, g) in enumerate(zip(SHAPES, grads)):
        p = torch.zeros(s, dtype=f64, requires_grad=i not in frozen)
        p.grad = None if g is None else g.clone()
        ps.append(p)
    torch.nn.utils.clip_grad_value_(ps, 0.7)
    r = student.call("clip_value_run", shapes=SHAPES, grads=grads, clip_value=0.7, how="list", frozen=list(frozen))
    check_grads(r["grads"], [p.grad for p in ps], f"{CV}(params, 0.7) where parameters {list(frozen)} have "
                f"requires_grad=False but a .grad (every existing .grad is clamped)", atol=0, rtol=0)


@pytest.mark.task("clip_grad_value", weight=0.1)  # its right answer is a constant (None): worth little
def test_clip_value_returns_none(student, gen):
    """clip_grad_value returns None, like clip_grad_value_"""
    grads = make_grads(gen, SHAPES[:2], scale=3.0)
    r = student.call("clip_value_run", shapes=SHAPES[:2], grads=grads, clip_value=1.0, how="list")
    expect(r["ret"] is None, f"{CV}(params, 1.0) must return None, returned {r['ret_type']} {str(r['ret'])[:80]}")


@pytest.mark.task("clip_grad_value", weight=0.1)  # its right answer is a constant (nothing changed): worth little
def test_clip_value_without_gradients(student, gen):
    """clip_grad_value with parameters without any .grad (or none at all) changes nothing, raises nothing and
    returns None, as clip_grad_value_ does"""
    for shapes, label in (([(3,), (2,)], "no gradients at all"), ([], "an empty list of parameters")):
        what = (f"{CV}(params, clip_value=1.0) with {label} (the text: 'skip parameters without .grad'; "
                f"torch._foreach_* ops raise on an empty list)")
        r = student.call("clip_value_run", shapes=shapes, grads=[None] * len(shapes), clip_value=1.0, how="list")
        check_grads(r["grads"], [None] * len(shapes), what)
        expect(r["ret"] is None, f"{what}: must return None, returned {r['ret_type']}")


@pytest.mark.task("clip_grad_value")
def test_clip_value_float32_and_boundaries(student, gen):
    """clip_grad_value: float32 gradients, values exactly at +-clip_value and far beyond it"""
    g = torch.tensor([-1e30, -0.5, -0.25, 0.0, 0.25, 0.5, 3.0, 1e30], dtype=torch.float32)
    g2 = torch.randn(3, 3, generator=gen, dtype=torch.float32)
    ps = [torch.zeros(8, requires_grad=True), torch.zeros(3, 3, requires_grad=True)]
    ps[0].grad, ps[1].grad = g.clone(), g2.clone()
    torch.nn.utils.clip_grad_value_(ps, 0.5)
    r = student.call("clip_value_run", shapes=[(8,), (3, 3)], grads=[g, g2], clip_value=0.5, how="list")
    check_grads(r["grads"], [p.grad for p in ps], f"{CV}(params, 0.5) with float32 gradients including +-1e30",
                atol=0, rtol=0)


@pytest.mark.task("clip_grad_value")
def test_clip_value_zero(student, gen):
    """clip_grad_value with clip_value=0 clamps every entry into [-0, 0], i.e. to 0, as clip_grad_value_ does: a
    zero clip_value does not switch clipping off"""
    grads = make_grads(gen, SHAPES[:3], scale=3.0)
    ps = []
    for s, g in zip(SHAPES[:3], grads):
        p = torch.zeros(s, dtype=f64, requires_grad=True)
        p.grad = g.clone()
        ps.append(p)
    torch.nn.utils.clip_grad_value_(ps, 0.0)
    r = student.call("clip_value_run", shapes=SHAPES[:3], grads=grads, clip_value=0.0, how="list")
    check_grads(r["grads"], [p.grad for p in ps], f"{CV}(params, clip_value=0.0) on {len(ps)} parameters (the "
                f"text: 'clamp each existing .grad in place into [-clip_value, clip_value]': here every entry "
                f"becomes 0)", atol=0, rtol=0)


@pytest.mark.task("clip_grad_value")
def test_clip_value_non_finite(student, gen):
    """clip_grad_value with nan and +-inf gradient entries matches clip_grad_value_ (a clamp): nan stays nan,
    +-inf becomes +-clip_value"""
    g = torch.randn(7, generator=gen, dtype=torch.float64) * 3
    g[1], g[3], g[5] = float("nan"), float("inf"), float("-inf")
    p = torch.zeros(7, requires_grad=True, dtype=torch.float64)
    p.grad = g.clone()
    torch.nn.utils.clip_grad_value_([p], 0.5)
    r = student.call("clip_value_run", shapes=[(7,)], grads=[g], clip_value=0.5, how="list")
    got = r["grads"][0]
    what = f"{CV}([p], 0.5) with p.grad = {g.tolist()}"
    if got is None:
        fail(f"{what}: the .grad disappeared")
    expect_close(got, p.grad, f"{what} (clip_grad_value_ is grad.clamp_(-clip_value, clip_value): a nan entry stays "
                              f"nan, nothing replaces it)", atol=0, rtol=0, equal_nan=True)


@pytest.mark.task("clip_grad_value")
def test_clip_value_on_another_device(student, gen):
    """clip_grad_value runs where the gradients are: on gradients on a device other than the default (meta, a
    stand-in for a GPU) it raises nothing and leaves every .grad there"""
    shapes = SHAPES[:3]
    grads = make_grads(gen, shapes, scale=3.0)
    what = (f"{CV}(params, clip_value=0.5) with the .grad tensors on the meta device (the grader's stand-in for a "
            f"GPU: a tensor made without device= lands elsewhere, as on a GPU; 'It runs where the gradients are')")
    r = student.call("clip_value_on_meta", shapes=shapes, grads=grads, clip_value=0.5)
    if "error" in r:
        fail(f"{what}: raised {r['error']} (clamp each .grad with Python numbers, or build bounds with "
             f"torch.full_like(g, ...) on the gradient's device)")
    for i, dev in enumerate(r["grad_devices"]):
        expect(dev == "meta", f"{what}: parameter {i}'s .grad is on {dev} after the call, not where it was")
    expect(r["ret_type"] == "NoneType", f"{what}: must return None, returned {r['ret_type']}")
    if r["home"] == "cpu":  # the code read values: compare them
        check_grads(r["grads"], [g.clamp(-0.5, 0.5) for g in grads], what, atol=0, rtol=0)
