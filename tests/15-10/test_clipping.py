"""Hidden checks for clip_grad_norm (15-10, judge side)."""
import pytest
import torch
from hypothesis import given, settings, strategies as st

from course.judge.expect import expect, expect_close
from course.judge.strategies import WRITABLE_LAYOUTS, relayout, shapes, tensors

pytestmark = pytest.mark.task("clipping")
f64 = torch.float64


def reference(grads, max_norm):
    params = []
    for g in grads:
        p = torch.zeros(g.shape if g is not None else (3,), dtype=f64, requires_grad=True)
        p.grad = None if g is None else g.clone()
        params.append(p)
    norm = torch.nn.utils.clip_grad_norm_(params, max_norm)
    return float(norm), [p.grad for p in params]


def judge_norm(got, want_norm, what):
    expect(abs(got["norm"] - want_norm) <= 1e-9 + 1e-7 * want_norm,
           f"{what}: returned norm should be the global L2 norm BEFORE clipping, {want_norm:.6g}; got {got['norm']:.6g}")


def judge_grads(got, want_grads, what):
    expect(isinstance(got.get("grads"), list) and len(got["grads"]) == len(want_grads),
           f"{what}: the probe read back {len(got.get('grads') or [])} gradients, the judge gave {len(want_grads)}")
    for i, (g, w) in enumerate(zip(got["grads"], want_grads)):
        if w is None:
            expect(g is None, f"{what}: parameter {i} had grad None and must keep it, got a tensor")
        else:
            expect(g is not None, f"{what}: parameter {i}'s gradient disappeared")
            expect_close(g, w, f"{what}: clipped gradient of parameter {i} (shape {tuple(w.shape)})",
                         atol=1e-10, rtol=1e-7)


def judge(student, grads, max_norm, what):
    got = student.call("clip", grads=grads, max_norm=max_norm)
    want_norm, want_grads = reference(grads, max_norm)
    judge_norm(got, want_norm, what)
    judge_grads(got, want_grads, what)
    return got


SHAPES = [[(5,)], [(3, 4), (7,), (2, 2, 2)], [(4,), None, (3, 3)], [(1,), (6, 1)]]


@pytest.mark.parametrize("shapes", SHAPES, ids=["one", "three", "with_none", "small"])
def test_matches_torch_clip_grad_norm(student, gen, shapes):
    """clip_grad_norm matches torch.nn.utils.clip_grad_norm_ (global norm, skips None grads)"""
    grads = [None if s is None else 3 * torch.randn(s, generator=gen, dtype=f64) for s in shapes]
    # a gradient whose memory is transposed (as a transposed or channels-last parameter's is): .view(-1) fails on it
    wide = [i for i, g in enumerate(grads) if g is not None and g.dim() >= 2 and min(g.shape[-2:]) > 1]
    if wide:
        grads[wide[0]] = relayout(grads[wide[0]], "transposed")
    judge(student, grads, 0.5, f"clip_grad_norm on gradients of shapes {shapes} with max_norm=0.5"
          + (f" (gradient #{wide[0]} transposed in memory, strides {grads[wide[0]].stride()})" if wide else ""))


def test_float64_beyond_float32_range(student, gen):
    """float64 gradients are measured in float64: entries near 1e39 (finite in float64, past float32's largest value)
    give a finite total, and the gradients are scaled by max_norm / total, not zeroed"""
    grads = [torch.randn(3, 2, generator=gen, dtype=f64) * 1e39, torch.randn(4, generator=gen, dtype=f64) * 3e38]
    judge(student, grads, 1.0, "clip_grad_norm on float64 gradients of magnitude about 1e39 (beyond float32's range, "
                               "finite in float64) with max_norm=1.0")


def test_list_of_one_parameter(student, gen):
    """clip_grad_norm given a list (any iterable) holding one parameter clips it like torch.nn.utils.clip_grad_norm_"""
    grads = [5 * torch.randn(4, 3, generator=gen, dtype=f64)]
    got = student.call("clip", grads=grads, max_norm=0.5, as_list=True)
    want_norm, want_grads = reference(grads, 0.5)
    what = "clip_grad_norm([p], 0.5) for one parameter in a list, with a gradient of norm about 17"
    expect(got["is_tensor"] and got["norm_shape"] == [], f"{what}: expected a 0-dim tensor to be returned, got "
                                                         f"{'a tensor of shape ' + str(got['norm_shape']) if got['is_tensor'] else 'no tensor'}")
    judge_norm(got, want_norm, what)
    judge_grads(got, want_grads, what)


def test_returns_norm_before_clipping(student, gen):
    """the returned value is the total norm BEFORE clipping, as a 0-dim tensor"""
    grads = [10 * torch.randn(4, 3, generator=gen, dtype=f64), 10 * torch.randn(6, generator=gen, dtype=f64)]
    got = student.call("clip", grads=grads, max_norm=1.0)
    want_norm, _ = reference(grads, 1.0)
    what = "clip_grad_norm on two gradients of total norm about 60 with max_norm=1.0"
    judge_norm(got, want_norm, what)
    expect(got["is_tensor"] and got["norm_shape"] == [],
           f"{what}: the total norm must be returned as a 0-dim tensor, got "
           f"{'a tensor of shape ' + str(got['norm_shape']) if got['is_tensor'] else 'a non-tensor'}")


def test_never_scales_up(student, gen):
    """clip_grad_norm leaves gradients alone when their norm is below max_norm"""
    grads = [0.01 * torch.randn(4, 3, generator=gen, dtype=f64), 0.01 * torch.randn(5, generator=gen, dtype=f64)]
    judge(student, grads, 100.0, "clip_grad_norm with a total norm far below max_norm=100")


def test_epsilon_in_the_factor(student, gen):
    """the factor is max_norm / (total + 1e-6): visible when the total norm is close to 1, and applied even when the
    total norm is exactly max_norm (the factor max_norm / (max_norm + 1e-6) is below 1: no early `return` there)"""
    g = torch.randn(6, generator=gen, dtype=f64)
    grads = [0.8 * g / g.norm()]  # total norm 0.8, clipped to 0.5
    judge(student, grads, 0.5, "clip_grad_norm on a gradient of norm 0.8 with max_norm=0.5 "
                               "(factor 0.5 / (0.8 + 1e-6))")
    small = [3e-4 * g / g.norm(), torch.full((2, 2), 2e-4, dtype=f64)]  # total norm 5e-4
    at = float(torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(x) for x in small]))) * (1 + 1e-12)
    judge(student, small, at, f"clip_grad_norm on two gradients of total norm {at:.6g} with max_norm equal to that "
                              f"total (to 1e-12; the factor {at:.6g} / ({at:.6g} + 1e-6) = {at / (at + 1e-6):.6f} "
                              f"still applies)")


@pytest.mark.task("clipping", weight=0.1)  # its right answer is a constant (zeros): worth little
def test_zero_gradients(student):
    """all-zero gradients: norm 0, and the gradients stay zero (no 0/0)"""
    grads = [torch.zeros(3, 2, dtype=f64), torch.zeros(4, dtype=f64)]
    judge(student, grads, 1.0, "clip_grad_norm on all-zero gradients with max_norm=1.0")


@pytest.mark.task("clipping", weight=0.1)  # its right answer is a constant (0, nothing changed): worth little
def test_no_gradient_at_all(student):
    """when no parameter has a gradient, clip_grad_norm returns 0.0 (a floating tensor) and changes nothing"""
    got = student.call("clip", grads=[None, None], max_norm=1.0)
    what = "clip_grad_norm on two parameters whose .grad is None"
    expect(got["is_tensor"] and got["norm"] == 0.0,
           f"{what}: should return a tensor 0.0, got {'a tensor' if got['is_tensor'] else 'a non-tensor'} "
           f"of value {got['norm']}")
    expect(got["grads"] == [None, None], f"{what}: the .grad attributes must stay None")
    torch_zero = torch.nn.utils.clip_grad_norm_([torch.zeros(3, requires_grad=True)], 1.0)  # PyTorch's own answer
    expect(got.get("norm_floating") is True,
           f"{what}: should return a floating 0.0 ({torch_zero.dtype}, as torch.nn.utils.clip_grad_norm_ does), got "
           f"a tensor of dtype {got.get('norm_dtype')}")


def test_in_place(student, gen):
    """the gradients are rescaled in place: each .grad is the same tensor object, with clipped values"""
    grads = [5 * torch.randn(3, 3, generator=gen, dtype=f64), 5 * torch.randn(4, generator=gen, dtype=f64)]
    got = student.call("clip", grads=grads, max_norm=0.5)
    _, want = reference(grads, 0.5)
    what = "clip_grad_norm on two gradients with max_norm=0.5"
    expect(len(got["same_object"]) == len(grads) and len(got["originals"]) == len(grads),
           f"{what}: the probe read back {len(got['same_object'])} parameters, the judge gave {len(grads)}")
    expect(all(got["same_object"]), f"{what}: p.grad was replaced by a new tensor for parameters "
                                    f"{[i for i, s in enumerate(got['same_object']) if not s]}; scale it in place "
                                    f"(g.mul_(...)), other code may hold a reference to it")
    for i, (o, w) in enumerate(zip(got["originals"], want)):
        expect_close(o, w, f"{what}: the original gradient tensor of parameter {i} after clipping",
                     atol=1e-10, rtol=1e-7)


def test_not_recorded_by_autograd(student, gen):
    """the rescaling is not recorded by autograd (gradients that carry a graph keep their last node)"""
    grads = [5 * torch.randn(3, generator=gen, dtype=f64), 5 * torch.randn(2, 2, generator=gen, dtype=f64)]
    got = student.call("clip", grads=grads, max_norm=0.5, graph_grads=True)
    what = ("clip_grad_norm on gradients that carry an autograd graph (as after backward(create_graph=True)), "
            "with max_norm=0.5")
    expect(len(got["grad_fns"]) == len(grads) and all(f == "AddBackward0" for f in got["grad_fns"]),
           f"{what}: the clipping was recorded in the gradients' graph (their grad_fn became {got['grad_fns']}); "
           f"rescale under torch.no_grad()")
    judge_grads(got, reference(grads, 0.5)[1], what)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 4), max_norm=st.floats(0.05, 20.0),
       odd=tensors(shape=shapes(0, 4, 0, 4), layouts=WRITABLE_LAYOUTS))
def test_random_property(student, seed, n, max_norm, odd):
    """clip_grad_norm matches torch on random gradients and thresholds (one gradient of any rank, 0-dim or zero-size
    included, in any memory layout: transposed, strided, offset, channels-last)"""
    g = torch.Generator().manual_seed(seed)
    grads = [torch.randn(int(torch.randint(1, 6, (1,), generator=g)), 2, generator=g, dtype=f64) *
             float(torch.rand(1, generator=g) * 5) for _ in range(n)]
    at = seed % (n + 1)
    grads.insert(at, odd)
    judge(student, grads, max_norm, f"clip_grad_norm on {n + 1} random gradients (#{at}: shape {tuple(odd.shape)}, "
                                    f"strides {odd.stride()}, contiguous={odd.is_contiguous()}) with "
                                    f"max_norm={max_norm:.4g}")


@pytest.mark.parametrize("bad", ["nan", "inf"])
def test_non_finite_gradient(student, gen, bad):
    """a nan or inf gradient entry: like torch.nn.utils.clip_grad_norm_ (the reference), a nan or inf total norm and
    every gradient multiplied by the factor it gives (no `if total > max_norm` that a nan skips)"""
    grads = [3 * torch.randn(3, 2, generator=gen, dtype=f64), 3 * torch.randn(4, generator=gen, dtype=f64)]
    grads[1][int(torch.randint(0, 4, (1,), generator=gen))] = float(bad)
    got = student.call("clip", grads=grads, max_norm=1.0)
    want_norm, want_grads = reference(grads, 1.0)
    what = f"clip_grad_norm with one gradient entry {bad}, max_norm=1.0 (total norm {want_norm})"
    expect(got["norm"] != got["norm"] if bad == "nan" else got["norm"] == want_norm,
           f"{what}: the returned norm should be {want_norm}, got {got['norm']}")
    expect(len(got["grads"]) == len(want_grads),
           f"{what}: the probe read back {len(got['grads'])} gradients, the judge gave {len(want_grads)}")
    for i, (g, w) in enumerate(zip(got["grads"], want_grads)):
        expect(g is not None, f"{what}: parameter {i}'s gradient disappeared")
        expect_close(g, w, f"{what}: gradient of parameter {i} (clip_grad_norm_ multiplies by "
                           f"clamp(max_norm / (total + 1e-6), max=1), which is {'nan' if bad == 'nan' else '0'} here)",
                     atol=1e-10, rtol=1e-7, equal_nan=True)


def test_gradients_off_the_default_device(student, gen):
    """gradients on another device than the default one (a GPU; here a stand-in): clip_grad_norm runs there, makes
    no tensor on the default device that it mixes with them, and clips each .grad in place on its device"""
    n = int(torch.randint(1, 4, (1,), generator=gen))
    grads = [3 * torch.randn(int(torch.randint(1, 6, (1,), generator=gen)), generator=gen, dtype=f64)
             for _ in range(n)]
    grads.append(torch.zeros((), dtype=f64))  # a 0-dim gradient
    what = (f"clip_grad_norm on {len(grads)} parameters whose gradients (shapes {[tuple(g.shape) for g in grads]}) "
            f"sit on a device other than the default one, max_norm=0.5")
    r = student.call("clip_off_device", grads=grads, max_norm=0.5)
    if "inconclusive" in r:  # the code reads values on either stand-in (as it may on a GPU): nothing to judge here
        return
    expect("error" not in r, f"{what}: raised {r.get('error')} (a tensor made without device= sits on the default "
                             f"device, and mixing it with the gradients fails as on a GPU: make constants on "
                             f"grads[0].device, or use Python floats)")
    expect(len(r["grad_devices"]) == len(grads) and len(r["same_object"]) == len(grads),
           f"{what}: the probe saw {len(r['grad_devices'])} gradients")
    for i, (dev, same) in enumerate(zip(r["grad_devices"], r["same_object"])):
        expect(dev == "meta", f"{what}: parameter {i}'s .grad is now on {dev}: clip it in place on its own device")
        expect(same, f"{what}: parameter {i}'s .grad is a new tensor: rescale it in place (g.mul_(...))")
    if r.get("home") == "cpu":  # the code needed values: the roles swapped, and the values can be compared
        want_norm, want_grads = reference(grads, 0.5)
        judge_norm(r, want_norm, what)
        judge_grads(r, want_grads, what)


def test_written_without_torch_clip_grad_norm(student, gen):
    """clip_grad_norm is the student's own: it does not call torch.nn.utils.clip_grad_norm_ (the reference)"""
    grads = [3 * torch.randn(4, 3, generator=gen, dtype=f64), 3 * torch.randn(5, generator=gen, dtype=f64)]
    r = student.call("clip_torch_calls", grads=grads, max_norm=0.5)
    what = "clip_grad_norm([p1, p2], 0.5) on two gradients of total norm about 12"
    expect(not r["calls"], f"{what} called torch.nn.utils.{r['calls'][0] if r['calls'] else ''}: the text says "
                           f"\"torch.nn.utils.clip_grad_norm_ is the reference; write your own without calling it\"")
    want_norm, _ = reference(grads, 0.5)
    judge_norm(r, want_norm, what)
