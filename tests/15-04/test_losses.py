"""Hidden checks for the two losses of 15-04 (judge side): label-smoothing CE and NT-Xent."""
import pytest
import torch
import torch.nn.functional as F
from hypothesis import HealthCheck, given, settings, strategies as st

from course.judge.adapter import StudentError
from course.judge.expect import (expect, expect_close, expect_raises, fail, gradcheck_directional,
                                 jacobian_vs_reference)
from course.judge.strategies import relayout

f64 = torch.float64


def _gen(seed):
    return torch.Generator().manual_seed(seed)


def _scalar(got, what):
    if isinstance(got, float):
        return torch.tensor(got, dtype=f64)
    if not isinstance(got, torch.Tensor):
        fail(f"{what}: expected a tensor, got {type(got).__name__}: {str(got)[:120]}")
    return got


def _loss_value(got, what):
    """NT-Xent's value as a 0-dim tensor (its shape is judged by test_nt_xent_returns_0dim)."""
    got = _scalar(got, what)
    return got.reshape(()) if got.numel() == 1 else got


# ------------------------------------------------------------------ label smoothing
LS = "label_smoothing_cross_entropy"


@pytest.mark.task("label_smoothing")
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 9), c=st.integers(2, 12),
       smoothing=st.sampled_from([0.0, 0.05, 0.1, 0.3, 0.5, 1.0]), reduction=st.sampled_from(["mean", "sum", "none"]))
def test_ls_matches_torch(student, seed, n, c, smoothing, reduction):
    """label_smoothing_cross_entropy matches F.cross_entropy(label_smoothing=...) on random float64 logits"""
    g = _gen(seed)
    logits = 3 * torch.randn(n, c, generator=g, dtype=f64)
    target = torch.randint(0, c, (n,), generator=g)
    r = student.call("ls_ce", logits=logits, target=target, smoothing=smoothing, reduction=reduction, watch=True)
    want = F.cross_entropy(logits, target, label_smoothing=smoothing, reduction=reduction)
    what = f"{LS}(logits of shape ({n}, {c}), target, smoothing={smoothing}, reduction='{reduction}')"
    expect_close(_scalar(_watched(r, what), LS), want, what, atol=1e-10, rtol=1e-8)


def _watched(r, what):
    """The loss from an ls_ce(..., watch=True) reply, after checking that the call left its inputs unchanged."""
    if not isinstance(r, dict) or "out" not in r:
        fail(f"{what}: the check got back something other than the loss and the state of its inputs")
    for name in ("logits", "target"):
        expect(r.get(f"{name}_changed") is False,
               f"{what} changed the {name} it was given (an in-place shift such as logits.sub_(max), taken only "
               f"for some inputs?): like F.cross_entropy it leaves its inputs unchanged; shift a new tensor, "
               f"logits - max")
    return r["out"]


@pytest.mark.task("label_smoothing")
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16],
                         ids=["float32", "float16", "bfloat16"])
def test_ls_dtype_and_inputs_as_torch(student, gen, dtype):
    """label_smoothing_cross_entropy returns its loss in the dtype F.cross_entropy gives (the logits' dtype:
    float32, float16, bfloat16) and leaves the logits and target it was given unchanged, as F.cross_entropy does"""
    logits = (3 * torch.randn(5, 4, generator=gen)).to(dtype)
    target = torch.randint(0, 4, (5,), generator=gen)
    r = student.call("ls_ce_dtype_and_inputs", logits=logits, target=target, smoothing=0.1)
    name = str(dtype).replace("torch.", "")
    for reduction, got in r.items():
        what = f"{LS}({name} logits of shape (5, 4), target, 0.1, reduction='{reduction}')"
        expect("error" not in got, f"{what} raised {got.get('error')}")
        want = F.cross_entropy(logits, target, label_smoothing=0.1, reduction=reduction).dtype
        expect(got["dtype"] == str(want), f"{what}: F.cross_entropy returns {want}, got {got['dtype']} "
                                          f"(compute in the logits' dtype, or cast the result back: an upcast of "
                                          f"half-precision logits to float32 must not leak into the result)")
        expect(not got["logits_changed"] and not got["target_changed"],
               f"{what} changed the {'logits' if got['logits_changed'] else 'target'} it was given (an in-place "
               f"shift such as logits.sub_(max)?): shift a new tensor, logits - max")


@pytest.mark.task("label_smoothing")
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_ls_on_another_device(student, gen, reduction):
    """label_smoothing_cross_entropy runs where its inputs are: on logits and target on a device other than the
    default (meta, a stand-in for a GPU), every tensor it builds must be on that device"""
    logits = torch.randn(4, 3, generator=gen, dtype=f64)
    target = torch.randint(0, 3, (4,), generator=gen)
    r = student.call("ls_ce_on_meta", logits=logits, target=target, smoothing=0.1, reduction=reduction)
    what = (f"{LS}(logits (4, 3), target, 0.1, reduction='{reduction}') on the meta device (the grader's stand-in "
            f"for a GPU: a tensor made without device= lands on the CPU)")
    expect("error" not in r, f"{what} raised {r.get('error')}: make every tensor on the logits' device "
                             f"(device=logits.device, or torch.zeros_like / F.one_hot of the inputs)")
    want = [] if reduction != "none" else [4]
    expect(r["device"] == "meta" and r["shape"] == want,
           f"{what}: expected shape {want} on meta, got shape {r['shape']} on {r['device']}")


@pytest.mark.task("label_smoothing")
@pytest.mark.parametrize("case", ["offset+100", "scale*1000", "offset-1000"])
def test_ls_extreme_logits(student, gen, case):
    """label_smoothing_cross_entropy stays finite and correct on extreme logits (+100 offsets, x1000 scales), and
    leaves them unchanged"""
    for dtype, tol in ((torch.float32, 1e-3), (f64, 1e-9)):
        logits = torch.randn(6, 10, generator=gen, dtype=dtype)
        logits = {"offset+100": logits + 100.0, "scale*1000": logits * 1000.0,
                  "offset-1000": logits - 1000.0}[case]
        target = torch.randint(0, 10, (6,), generator=gen)
        for reduction in ("none", "mean"):
            r = student.call("ls_ce", logits=logits, target=target, smoothing=0.1, reduction=reduction,
                             watch=True)
            want = F.cross_entropy(logits.double(), target, label_smoothing=0.1, reduction=reduction)
            what = f"{LS}(logits {case}, {str(dtype).replace('torch.', '')}, smoothing=0.1, reduction='{reduction}')"
            expect_close(_scalar(_watched(r, what), LS), want,
                         what + " (use logsumexp / log_softmax, never exp of raw logits)", atol=tol, rtol=tol)


@pytest.mark.task("label_smoothing")
@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_ls_gradient(student, gen, reduction):
    """label_smoothing_cross_entropy: gradient w.r.t. the logits matches PyTorch's"""
    logits = (2 * torch.randn(5, 7, generator=gen, dtype=f64)).requires_grad_(True)
    target = torch.randint(0, 7, (5,), generator=gen)
    jacobian_vs_reference(
        student, "ls_ce_vjp", [logits],
        lambda x: F.cross_entropy(x, target, label_smoothing=0.2, reduction=reduction),
        f"{LS}(logits of shape (5, 7), target, smoothing=0.2, reduction='{reduction}')",
        gen=gen, target=target, smoothing=0.2, reduction=reduction, atol=1e-10, rtol=1e-8)


@pytest.mark.task("label_smoothing")
def test_ls_second_derivative(student, gen):
    """label_smoothing_cross_entropy is differentiable twice, as F.cross_entropy is: autograd through its
    operations gives the gradient and the gradient of that gradient (a gradient penalty, a Hessian-vector
    product), against F.cross_entropy's"""
    logits = (2 * torch.randn(4, 5, generator=gen, dtype=f64)).requires_grad_(True)
    target = torch.randint(0, 5, (4,), generator=gen)
    gradcheck_directional(
        student, "ls_ce_directional", [logits],
        f"{LS}(logits of shape (4, 5), target, smoothing=0.2) differentiated twice (the text: 'be differentiable "
        f"twice, as F.cross_entropy is (autograd through your operations gives the gradient and the gradient of "
        f"the gradient: no hand-written backward)'; a torch.autograd.Function marked once_differentiable gives the "
        f"first only)",
        gen=gen, n_dirs=2, order=2, reference=lambda x: F.cross_entropy(x, target, label_smoothing=0.2),
        target=target, smoothing=0.2, reduction="mean")


@pytest.mark.task("label_smoothing")
@pytest.mark.parametrize("smoothing", [0.0, 1.0])
def test_ls_smoothing_at_the_ends(student, gen, smoothing):
    """label_smoothing_cross_entropy accepts both ends of [0, 1]: smoothing 0 (plain CE) and 1 (uniform target),
    written as floats or as the ints 0 and 1"""
    logits = 2 * torch.randn(5, 4, generator=gen, dtype=f64)
    target = torch.randint(0, 4, (5,), generator=gen)
    want = F.cross_entropy(logits, target, label_smoothing=smoothing, reduction="none")
    forms = [smoothing, int(smoothing)]
    res = student.call("ls_ce_many", logits=logits, target=target, smoothings=forms, reduction="none")
    if not isinstance(res, list) or len(res) != len(forms):
        fail(f"{LS}: the check expected {len(forms)} results back, got {str(res)[:80]}")
    for s, got in zip(forms, res):
        what = f"{LS}(logits of shape (5, 4), target, smoothing={s!r}, reduction='none')"
        if isinstance(got, dict) and "error" in got:
            fail(f"{what} raised {got['error']}: every smoothing in [0, 1] is valid, both ends included, whether "
                 f"written {float(s)!r} or {int(s)!r} (compare the value, 0 <= smoothing <= 1, not its type)")
        expect_close(_scalar(got, what), want, what + " (every smoothing in [0, 1] is valid, both ends included)",
                     atol=1e-10, rtol=1e-8)


@pytest.mark.task("label_smoothing")
@pytest.mark.parametrize("case", ["one sample, one class", "empty batch"])
def test_ls_edge_shapes(student, gen, case):
    """label_smoothing_cross_entropy on the smallest (N, C) the text allows: one sample of one class, and an
    empty batch (N = 0: every reduction, 'mean' giving nan as F.cross_entropy does)"""
    n, c = (1, 1) if case == "one sample, one class" else (0, 5)
    logits = 3 * torch.randn(n, c, generator=gen, dtype=f64)
    target = torch.randint(0, c, (n,), generator=gen)
    for reduction in ("mean", "sum", "none"):
        got = student.call("ls_ce", logits=logits, target=target, smoothing=0.1, reduction=reduction)
        want = F.cross_entropy(logits, target, label_smoothing=0.1, reduction=reduction)
        nan_mean = " (the mean over zero samples is 0 / 0 = nan, as F.cross_entropy gives; no max(N, 1))" \
            if n == 0 and reduction == "mean" else ""
        expect_close(_scalar(got, LS), want,
                     f"{LS}(logits of shape ({n}, {c}), target of shape ({n},), smoothing=0.1, reduction="
                     f"'{reduction}') ({case}: the loss has the same shape and meaning as for any other N, C)"
                     + nan_mean, atol=1e-10, rtol=1e-8, equal_nan=True)


@pytest.mark.task("label_smoothing")
def test_ls_any_layout(student, gen):
    """label_smoothing_cross_entropy accepts logits and targets in any memory layout (transposed, strided,
    offset), as F.cross_entropy does"""
    for layout, reduction in (("transposed", "none"), ("strided", "mean"), ("offset", "sum")):
        logits = relayout(3 * torch.randn(6, 5, generator=gen, dtype=f64), layout)
        target = relayout(torch.randint(0, 5, (6,), generator=gen), "strided" if layout != "offset" else layout)
        got = student.call("ls_ce", logits=logits, target=target, smoothing=0.2, reduction=reduction,
                           keep_layout=True)
        want = F.cross_entropy(logits, target, label_smoothing=0.2, reduction=reduction)
        expect_close(_scalar(got, LS), want,
                     f"{LS}(logits of shape (6, 5) in a {layout} layout (not contiguous: a slice or a transpose "
                     f"of a bigger tensor), target of shape (6,), smoothing=0.2, reduction='{reduction}') (the "
                     f"text allows any (N, C) tensor: index with gather or [rows, target], or flatten with "
                     f"reshape, never view)", atol=1e-10, rtol=1e-8)


@pytest.mark.task("label_smoothing", weight=0.1)  # its right answer is a constant ("raised X"): worth little
def test_ls_rejects_bad_arguments(student, gen):
    """label_smoothing_cross_entropy raises ValueError for smoothing outside [0, 1] (nan included) or an unknown
    reduction"""
    logits = torch.randn(3, 4, generator=gen, dtype=f64)
    target = torch.randint(0, 4, (3,), generator=gen)
    res = student.call("ls_ce_errors", logits=logits, target=target)
    expect_raises(res["smoothing_high"], "ValueError", f"{LS}(..., smoothing=1.5)")
    expect_raises(res["smoothing_low"], "ValueError", f"{LS}(..., smoothing=-0.1)")
    expect_raises(res["smoothing_nan"], "ValueError", f"{LS}(..., smoothing=nan) (nan is not in [0, 1]: every "
                  f"comparison with nan is False, so test 0 <= smoothing <= 1 rather than smoothing < 0 or > 1)")
    expect_raises(res["reduction"], "ValueError", f"{LS}(..., reduction='average')")
    expect_raises(res["reduction_case"], "ValueError", f"{LS}(..., reduction='Mean') (F.cross_entropy knows only "
                  f"'mean', 'sum' and 'none', spelled so: 'Mean' is an unknown reduction, do not lower() it)")
    expect_raises(res["reduction_None"], "ValueError", f"{LS}(..., reduction=None) (None is not 'none': "
                  f"F.cross_entropy raises ValueError for it)")
    expect_raises(res["reduction_part"], "ValueError", f"{LS}(..., reduction='me') ('me' is an unknown reduction; "
                  f"a substring test such as reduction in 'mean sum none' lets it through: compare with the three "
                  f"names, reduction in ('mean', 'sum', 'none'))")


@pytest.mark.task("label_smoothing")
def test_ls_from_scratch(student, gen):
    """label_smoothing_cross_entropy is built from log-probabilities, not by calling F.cross_entropy (under any
    name: the judge watches torch's cross-entropy entry points while it runs), nor inside torch.cond or an operator of
    the submission's own registry, whose inside the watch cannot see"""
    logits = torch.randn(4, 5, generator=gen, dtype=f64)
    target = torch.randint(0, 5, (4,), generator=gen)
    smoothing = float(torch.empty(()).uniform_(0.05, 0.5, generator=gen))
    r = student.call("ls_ce_uses_builtin", logits=logits, target=target, smoothing=smoothing)
    expect(not r["calls"], f"{LS}(logits of shape (4, 5), target, smoothing={smoothing:.3f}) called "
                           f"{', '.join(r['calls'])}: the text says do not call F.cross_entropy or nn.CrossEntropyLoss "
                           f"(nor hand the loss to torch.cond or an operator of your own torch.library registry); the "
                           f"point of this exercise is to build the loss yourself from log_softmax / logsumexp")
    expect_close(_scalar(r["value"], LS), F.cross_entropy(logits, target, label_smoothing=smoothing),
                 f"{LS}(logits of shape (4, 5), target, smoothing={smoothing:.3f}) built without F.cross_entropy",
                 atol=1e-10, rtol=1e-8)


# --------------------------------------------------------------------------- NT-Xent
NT = "nt_xent_loss"


def nt_xent_reference(z1, z2, temperature):
    n = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = (z @ z.T) / temperature
    sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), float("-inf"))
    target = torch.cat([torch.arange(n, 2 * n), torch.arange(n)])
    return F.cross_entropy(sim, target)


@pytest.mark.task("nt_xent")
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(2, 10), d=st.integers(2, 16),
       temperature=st.sampled_from([0.05, 0.1, 0.5, 1.0, 2.0]))
def test_nt_xent_matches_reference(student, seed, n, d, temperature):
    """nt_xent_loss matches a reference NT-Xent (cosine similarity, self excluded by position) on random float64
    inputs, one of whose pairs is two identical views"""
    g = _gen(seed)
    z1 = torch.randn(n, d, generator=g, dtype=f64)
    z2 = z1 + 0.5 * torch.randn(n, d, generator=g, dtype=f64)
    z2[0] = z1[0]  # an identity augmentation: the partner's similarity equals the self-similarity (1 / t)
    got = student.call("nt_xent", z1=z1, z2=z2, temperature=temperature)
    expect_close(_loss_value(got, NT), nt_xent_reference(z1, z2, temperature),
                 f"{NT}(z1, z2, temperature={temperature}) with z1, z2 of shape ({n}, {d}), random, except that "
                 f"z2[0] equals z1[0] (two identical views: the partner's similarity equals the self-similarity, "
                 f"so mask the diagonal by position, torch.eye, not by value)", atol=1e-10, rtol=1e-8)


@pytest.mark.task("nt_xent", weight=0.1)  # its right answer is a constant (0): worth little
def test_nt_xent_single_pair_is_zero(student, gen):
    """nt_xent_loss: with one pair (N=1) every anchor has only its positive, so the loss is exactly 0 (a 0-dim
    tensor in the inputs' dtype, computed from them: its gradient is 0)"""
    for d in (8, 1):  # any embedding size, one number per embedding included
        z1 = torch.randn(1, d, generator=gen, dtype=f64)
        z2 = torch.randn(1, d, generator=gen, dtype=f64)
        # through the gradient probe: a shortcut `return 0` for N = 1 gives the loss no graph to train through
        r = student.call("nt_xent_vjp", inputs=[z1.requires_grad_(True), z2.requires_grad_(True)],
                         v=torch.tensor(1.0, dtype=f64), temperature=0.5)
        if not isinstance(r, dict) or "out" not in r:
            fail(f"{NT}(z1, z2, 0.5) with a single pair of shape (1, {d}): the check got back something other "
                 f"than the loss and its gradients")
        got = r["out"]
        if isinstance(got, torch.Tensor) and got.numel() != 1:
            fail(f"{NT}(z1, z2, 0.5) with a single pair of shape (1, {d}) returned a tensor of shape "
                 f"{tuple(got.shape)}; the loss is one number (a 0-dim tensor)")
        expect_close(_loss_value(got, NT), torch.tensor(0.0, dtype=f64),
                     f"{NT}(z1, z2, 0.5) with a single pair of shape (1, {d}) (did you leave each embedding's "
                     f"similarity with itself among the candidates?)", atol=1e-10, rtol=0)
        kind = (f"a tensor of shape {tuple(got.shape)} and dtype {got.dtype}" if isinstance(got, torch.Tensor)
                else f"a {type(got).__name__}")
        expect(isinstance(got, torch.Tensor) and got.dim() == 0 and got.dtype == f64,
               f"{NT}(z1, z2, 0.5) with a single float64 pair of shape (1, {d}) returned {kind}: the loss is a "
               f"0-dim tensor in the dtype of z1 and z2 for every N >= 1, the one-pair case included (a shortcut "
               f"such as torch.tensor(0.0) is float32)")
        grads = r.get("grads")
        if not isinstance(grads, (list, tuple)) or len(grads) != 2 or any(g is None for g in grads):
            fail(f"{NT}(z1, z2, 0.5) with a single pair of shape (1, {d}): no gradient reaches z1 and z2 (the "
                 f"loss was built outside autograd, e.g. a constant torch.zeros(()) for N = 1); it is a loss for "
                 f"any N >= 1, so compute it from z1 and z2 (its gradient is then exactly 0)")
        for i, g in enumerate(grads):
            expect_close(g, torch.zeros(1, d, dtype=f64), f"{NT}(z1, z2, 0.5) with a single pair of shape "
                         f"(1, {d}), gradient for {'z1' if i == 0 else 'z2'}", atol=1e-10, rtol=0)


@pytest.mark.task("nt_xent")
@pytest.mark.parametrize("case", ["temperature=0.001", "embeddings*1e4", "embeddings*1e-6", "embeddings*1e-10"])
def test_nt_xent_extreme(student, gen, case):
    """nt_xent_loss stays finite and correct for tiny temperatures and for huge or tiny embeddings (only their
    directions count; huge float16 embeddings included)"""
    rows = ((torch.float32, 2e-3), (f64, 1e-8))
    if case == "embeddings*1e4":
        # float16 holds entries of 1e4 (its max is 65504) but not their squares: a norm computed as
        # sqrt((z * z).sum()) in the inputs' dtype is inf there, where F.normalize accumulates in float32
        rows += ((torch.float16, 2e-2),)
    for dtype, tol in rows:
        z1 = torch.randn(6, 5, generator=gen, dtype=dtype)
        z2 = z1 + 0.3 * torch.randn(6, 5, generator=gen, dtype=dtype)
        t = 0.5
        if case == "temperature=0.001":
            t = 0.001
        else:
            scale = {"embeddings*1e4": 1e4, "embeddings*1e-6": 1e-6, "embeddings*1e-10": 1e-10}[case]
            z1, z2 = z1 * scale, z2 * scale
        got = student.call("nt_xent", z1=z1, z2=z2, temperature=t)
        expect_close(_loss_value(got, NT), nt_xent_reference(z1.double(), z2.double(), t),
                     f"{NT}(z1, z2, temperature={t}) with {case}, {str(dtype).replace('torch.', '')}"
                     + (" (the loss depends only on the embeddings' directions: normalise with F.normalize, "
                        "not z / (norm + eps), which shortens short rows)" if case == "embeddings*1e-6" else
                        " (the loss depends only on the embeddings' directions: normalise with F.normalize "
                        "(eps 1e-12); F.cosine_similarity floors each norm at 1e-8 and shrinks rows this short)"
                        if case == "embeddings*1e-10" else
                        " (the text: 'the loss does not depend on the length of the embeddings, only on their "
                        "directions', in the inputs' dtype: a float16 entry of 1e4 squares to inf, so compute the "
                        "row norms with F.normalize or torch.linalg.vector_norm, which accumulate in float32)"
                        if case == "embeddings*1e4" else
                        " (similarities / temperature reach +-1000 here: use logsumexp)"), atol=tol, rtol=tol)


def simplex_views(n, d, gen, jitter):
    """Two views whose 2n rows point at the corners of a regular simplex (every pairwise cosine -1/(2n-1)),
    slightly jittered, turned by a random rotation and scaled per row: no similarity is positive."""
    m = 2 * n
    corners = torch.eye(m, dtype=f64) - 1.0 / m
    corners = torch.cat([corners, torch.zeros(m, d - m, dtype=f64)], dim=1)
    q, _ = torch.linalg.qr(torch.randn(d, d, generator=gen, dtype=f64))
    z = (corners + jitter * torch.randn(m, d, generator=gen, dtype=f64)) @ q
    z = z * (0.5 + 2.5 * torch.rand(m, 1, generator=gen, dtype=f64))
    return z[:n], z[n:]


@pytest.mark.task("nt_xent")
@pytest.mark.parametrize("n", [1, 2, 4])
def test_nt_xent_any_temperature(student, gen, n):
    """nt_xent_loss at temperatures 1e-8 and 1e-12 with all similarities negative: the self-similarity must be
    masked with -inf, not a large finite number"""
    # 1e-12: a correct loss differs from the reference by up to ~1e-4 here (float64 rounding of a cosine,
    # about 1e-16, is multiplied by 1 / t), so its tolerance is looser; a finite mask such as -1e9 is off
    # by ~1e11.
    for t, tol in ((1e-8, 1e-6), (1e-12, 1e-3)):
        z1, z2 = simplex_views(n, 2 * n + 1, gen, 0.5 * t)
        got = student.call("nt_xent", z1=z1, z2=z2, temperature=t)
        expect_close(_loss_value(got, NT), nt_xent_reference(z1, z2, t),
                     f"{NT}(z1, z2, temperature={t:g}) with N={n}, float64, every cosine similarity between "
                     f"different rows close to {-1 / (2 * n - 1):.3g} (similarities / temperature near "
                     f"{-1 / ((2 * n - 1) * t):.1g}: a diagonal masked with a finite value such as -1e4, -1e6 or "
                     f"-1e9 then outweighs every real candidate; any positive temperature is allowed, so mask "
                     f"with -inf)", atol=tol, rtol=tol)


@pytest.mark.task("nt_xent")
def test_nt_xent_gradient(student, gen):
    """nt_xent_loss: gradients w.r.t. both views match autograd through the reference"""
    z1 = torch.randn(5, 6, generator=gen, dtype=f64).requires_grad_(True)
    z2 = torch.randn(5, 6, generator=gen, dtype=f64).requires_grad_(True)
    jacobian_vs_reference(student, "nt_xent_vjp", [z1, z2], lambda a, b: nt_xent_reference(a, b, 0.2),
                          f"{NT}(z1, z2, temperature=0.2) with z1, z2 of shape (5, 6)", gen=gen,
                          temperature=0.2, atol=1e-9, rtol=1e-7)


@pytest.mark.task("nt_xent")
def test_nt_xent_on_another_device(student, gen):
    """nt_xent_loss runs where its inputs are: on embeddings on a device other than the default (meta, a stand-in
    for a GPU), every tensor it builds must be on that device (masks and indices made with device=z.device), for
    N = 1 too"""
    ns = [int(torch.randint(2, 6, (1,), generator=gen)), 1]  # any N >= 1: a shortcut for one pair included
    pairs = [(torch.randn(n, 4, generator=gen, dtype=f64), torch.randn(n, 4, generator=gen, dtype=f64)) for n in ns]
    res = student.call("nt_xent_on_meta", pairs=pairs, temperature=0.5)
    if not isinstance(res, list) or len(res) != len(ns):
        fail(f"{NT} on the meta device: the check expected {len(ns)} results back, got {str(res)[:80]}")
    for n, r in zip(ns, res):
        what = (f"{NT}(z1, z2, 0.5) with z1, z2 of shape ({n}, 4) on the meta device (the grader's stand-in for a "
                f"GPU: a tensor made without device= lands on the CPU)")
        expect("error" not in r, f"{what} raised {r.get('error')}: create masks and indices on the embeddings' "
                                 f"device (torch.eye(..., device=z.device), torch.arange(..., device=z.device))")
        expect(r["device"] == "meta" and r["shape"] == [],
               f"{what}: expected a 0-dim tensor on meta, got shape {r['shape']} on {r['device']}"
               + (" (a shortcut for one pair such as torch.zeros(()) is made on the CPU: compute the loss from "
                  "z1 and z2, or make it with z1.new_zeros(()))" if n == 1 else ""))


@pytest.mark.task("nt_xent")
def test_nt_xent_temperature_by_position(student, gen):
    """nt_xent_loss takes the temperature by position too, nt_xent_loss(z1, z2, 0.2), as the signature
    nt_xent_loss(z1, z2, temperature=0.5) the text gives allows"""
    z1 = torch.randn(5, 4, generator=gen, dtype=f64)
    z2 = z1 + 0.5 * torch.randn(5, 4, generator=gen, dtype=f64)
    what = (f"{NT}(z1, z2, 0.2) with z1, z2 of shape (5, 4), the temperature by position (the text's signature "
            f"nt_xent_loss(z1, z2, temperature=0.5) takes it so: keep it a positional-or-keyword parameter, no `*`)")
    try:
        got = student.call("nt_xent", z1=z1, z2=z2, temperature=0.2, positional=True)
    except StudentError as e:
        fail(f"{what}: {e}")
    expect_close(_loss_value(got, what), nt_xent_reference(z1, z2, 0.2), what, atol=1e-10, rtol=1e-8)


@pytest.mark.task("nt_xent")
@pytest.mark.parametrize("dtype", [torch.float32, f64, torch.float16, torch.bfloat16],
                         ids=["float32", "float64", "float16", "bfloat16"])
def test_nt_xent_returns_0dim(student, gen, dtype):
    """nt_xent_loss returns a 0-dim tensor, in the dtype of its inputs (half precision included)"""
    z1 = torch.randn(4, 3, generator=gen, dtype=dtype)
    z2 = torch.randn(4, 3, generator=gen, dtype=dtype)
    got = student.call("nt_xent", z1=z1, z2=z2, temperature=0.5)
    what = f"{NT}(z1, z2, 0.5) with z1, z2 of shape (4, 3), {str(dtype).replace('torch.', '')}"
    if not isinstance(got, torch.Tensor):
        fail(f"{what}: must return a tensor, got {type(got).__name__}")
    expect(got.dim() == 0, f"{what}: must return a 0-dim tensor, got shape {tuple(got.shape)}")
    expect(got.dtype == dtype, f"{what}: the loss should keep the inputs' dtype {dtype}, got {got.dtype}"
                               + (" (computing in float32 for stability is fine, but cast the loss back to the "
                                  "inputs' dtype)" if got.dtype == torch.float32 else ""))
    tol = {torch.float32: 1e-5, f64: 1e-10, torch.float16: 2e-2, torch.bfloat16: 1e-1}[dtype]
    expect_close(got.double(), nt_xent_reference(z1.double(), z2.double(), 0.5), what, atol=tol, rtol=tol)
