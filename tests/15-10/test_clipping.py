"""Hidden checks for clip_grad_norm (15-10, judge side)."""
import pytest
import torch
from hypothesis import given, settings, strategies as st

from course.checks import expect, expect_close

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


def judge(student, grads, max_norm, what):
    got = student.call("clip", grads=grads, max_norm=max_norm)
    want_norm, want_grads = reference(grads, max_norm)
    expect(got["is_tensor"], f"{what}: clip_grad_norm must return the total norm as a tensor")
    expect(abs(got["norm"] - want_norm) <= 1e-9 + 1e-7 * want_norm,
           f"{what}: returned norm should be the global L2 norm BEFORE clipping, {want_norm:.6g}; got {got['norm']:.6g}")
    for i, (g, w) in enumerate(zip(got["grads"], want_grads)):
        if w is None:
            expect(g is None, f"{what}: parameter {i} had grad None and must keep it, got a tensor")
        else:
            expect(g is not None, f"{what}: parameter {i}'s gradient disappeared")
            expect_close(g, w, f"{what}: clipped gradient of parameter {i} (shape {tuple(w.shape)})",
                         atol=1e-10, rtol=1e-7)


SHAPES = [[(5,)], [(3, 4), (7,), (2, 2, 2)], [(4,), None, (3, 3)], [(1,), (6, 1)]]


@pytest.mark.parametrize("shapes", SHAPES, ids=["one", "three", "with_none", "small"])
def test_matches_torch_clip_grad_norm(student, gen, shapes):
    """clip_grad_norm matches torch.nn.utils.clip_grad_norm_ (global norm, in place, skips None grads)"""
    grads = [None if s is None else 3 * torch.randn(s, generator=gen, dtype=f64) for s in shapes]
    judge(student, grads, 0.5, f"clip_grad_norm on gradients of shapes {shapes} with max_norm=0.5")


def test_never_scales_up(student, gen):
    """clip_grad_norm leaves gradients alone when their norm is below max_norm"""
    grads = [0.01 * torch.randn(4, 3, generator=gen, dtype=f64), 0.01 * torch.randn(5, generator=gen, dtype=f64)]
    judge(student, grads, 100.0, "clip_grad_norm with a total norm far below max_norm=100")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 4), max_norm=st.floats(0.05, 20.0))
def test_random_property(student, seed, n, max_norm):
    """clip_grad_norm matches torch on random gradients and thresholds"""
    g = torch.Generator().manual_seed(seed)
    grads = [torch.randn(int(torch.randint(1, 6, (1,), generator=g)), 2, generator=g, dtype=f64) *
             float(torch.rand(1, generator=g) * 5) for _ in range(n)]
    judge(student, grads, max_norm, f"clip_grad_norm on {n} random gradients with max_norm={max_norm:.4g}")
