"""Hidden checks of scaled_dot_product_attention (exercise 1), against F.scaled_dot_product_attention and,
for dropout, the judge's own computation with the draw order the notebook fixes."""
import math

import pytest
import torch
import torch.nn.functional as F
from hypothesis import HealthCheck, given, settings, strategies as st

from course.judge.expect import expect, expect_close, expect_equal, expect_raises, jacobian_vs_reference
from course.judge.strategies import tensors

pytestmark = pytest.mark.task("sdpa")
f64 = torch.float64
FN = "scaled_dot_product_attention"
TOL = {"atol": 1e-10, "rtol": 1e-8}


def reference(q, k, v, mask=None, is_causal=False, scale=None):
    """PyTorch's function on inputs expanded to their common leading shape."""
    lead = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    q, k, v = (t.expand(lead + t.shape[-2:]) for t in (q, k, v))
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=is_causal, scale=scale)


def run(student, what, q, k, v, **kw):
    res = student.call("sdpa", q=q, k=k, v=v, **kw)
    expect(isinstance(res["out"], torch.Tensor), f"{what} returned {res['out']}, not a tensor")
    return res


def rand(gen, *shape, scale=1.0, dtype=f64):
    return scale * torch.randn(*shape, generator=gen, dtype=dtype)


SHAPES = [  # q, k, v: leading dimensions that broadcast as in torch.matmul
    ((3, 4), (5, 4), (5, 2)),
    ((2, 3, 4), (2, 6, 4), (2, 6, 5)),
    ((2, 3, 4, 8), (3, 7, 8), (1, 3, 7, 2)),
    ((2, 1, 5, 3), (1, 4, 5, 3), (2, 4, 5, 6)),
    ((1, 1, 1), (1, 1, 1), (1, 1, 1)),
    ((2, 0, 4), (2, 5, 4), (2, 5, 3)),  # no query (L = 0): an empty (2, 0, 3), as PyTorch returns
    ((0, 3, 4), (1, 5, 4), (0, 5, 2)),  # an empty batch: (0, 3, 2)
    ((1, 0, 4), (3, 5, 4), (3, 5, 2)),  # no query, leading dimensions that broadcast: (3, 0, 2) (PyTorch: (1, 0, 2))
]


@pytest.mark.essential
@pytest.mark.parametrize("shapes", SHAPES, ids=[f"q{a}-k{b}-v{c}" for a, b, c in SHAPES])
def test_matches_torch(student, gen, shapes):
    """values match F.scaled_dot_product_attention for broadcasting leading dimensions, scores in the hundreds
    included, and empty results (no query, an empty batch)"""
    for size in (1.0,) if any(0 in s for s in shapes) else (1.0, 12.0):
        q, k, v = (rand(gen, *s, scale=size) for s in shapes)
        what = f"{FN}(q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}) with entries of size ~{size:g}"
        out = run(student, what, q, k, v)["out"]
        expect_close(out, reference(q, k, v), what, **TOL)


@pytest.mark.parametrize("scale", [0.0, 0.37, 2.0, -0.5])
def test_custom_scale(student, gen, scale):
    """a given scale replaces 1/sqrt(E), zero and negative scales included (the scores are q @ k^T times scale),
    also with a boolean mask and with is_causal (the masks remove pairs from the scaled scores)"""
    q, k, v = rand(gen, 2, 4, 6), rand(gen, 2, 5, 6), rand(gen, 2, 5, 3)
    what = f"{FN}(q (2, 4, 6), k (2, 5, 6), v (2, 5, 3), scale={scale})"
    expect_close(run(student, what, q, k, v, scale=scale)["out"], reference(q, k, v, scale=scale), what, **TOL)
    keep = torch.rand(4, 5, generator=gen) > 0.4
    keep[:, 0] = True  # every query keeps a key
    tril = torch.ones(4, 5, dtype=torch.bool).tril()
    for kw, mask, name in (({"attn_mask": keep}, keep, "attn_mask=bool (4, 5)"), ({"is_causal": True}, tril, "is_causal=True")):
        # the want is PyTorch's with an explicit boolean mask: its is_causal kernel gives NaN for a scale <= 0
        what = f"{FN}(q (2, 4, 6), k (2, 5, 6), v (2, 5, 3), scale={scale}, {name}) (a removed pair scores -inf " \
            f"after the scaling: -inf times a scale of 0 or below is NaN or +inf)"
        expect_close(run(student, what, q, k, v, scale=scale, **kw)["out"], reference(q, k, v, mask, scale=scale),
                     what, **TOL)


MASK_SHAPES = [(4, 5), (1, 5), (4, 1), (2, 1, 4, 5), (3, 4, 5)]


@pytest.mark.essential
@pytest.mark.parametrize("mshape", MASK_SHAPES, ids=[str(m) for m in MASK_SHAPES])
def test_boolean_mask(student, gen, mshape):
    """a boolean mask (True = takes part) broadcasts against (..., L, S)"""
    q, k, v = rand(gen, 2, 3, 4, 6), rand(gen, 2, 3, 5, 6), rand(gen, 2, 3, 5, 2)
    mask = torch.rand(mshape, generator=gen) > 0.35
    what = f"{FN}(q (2, 3, 4, 6), k (2, 3, 5, 6), v, attn_mask=bool {mshape} with {int(mask.sum())} True)"
    expect_close(run(student, what, q, k, v, attn_mask=mask)["out"], reference(q, k, v, mask), what, **TOL)


@pytest.mark.parametrize("mshape", MASK_SHAPES[:4], ids=[str(m) for m in MASK_SHAPES[:4]])
def test_float_mask(student, gen, mshape):
    """a float mask is added to the scores (any values, -inf removes a pair) and broadcasts"""
    q, k, v = rand(gen, 2, 3, 4, 6), rand(gen, 2, 3, 5, 6), rand(gen, 2, 3, 5, 2)
    mask = rand(gen, *mshape, scale=2.0)
    mask = mask.masked_fill(torch.rand(mshape, generator=gen) < 0.3, float("-inf"))
    what = f"{FN}(q (2, 3, 4, 6), k (2, 3, 5, 6), v, attn_mask=float {mshape} (random biases and some -inf))"
    expect_close(run(student, what, q, k, v, attn_mask=mask)["out"], reference(q, k, v, mask), what, **TOL)


def test_float_mask_lowest_finite_values(student, gen):
    """a float mask only biases the scores at its dtype's lowest finite value too: a query whose one key left is at
    finfo.min (or -1e300), every other at -inf, still has that key (its value, not zeros); only -inf removes a pair"""
    q, k, v = rand(gen, 2, 4, 6), rand(gen, 2, 5, 6), rand(gen, 2, 5, 3)
    low = torch.finfo(f64).min
    mask = rand(gen, 4, 5)
    j1, j2 = (int(torch.randint(0, 5, (), generator=gen)) for _ in range(2))
    mask[1] = float("-inf")
    mask[1, j1] = low  # query 1: one key left, at the lowest finite float64
    mask[2] = float("-inf")
    mask[2, j2] = -1e300  # query 2: one key left, far below any score
    # (one key per row: a row of several keys all at finfo.min has equal scores too, but a log-sum-exp softmax
    # cannot resolve log(n) next to 1.8e308 there, so the checks do not ask for it)
    what = f"{FN}(q (2, 4, 6), k (2, 5, 6), v (2, 5, 3), attn_mask=float (4, 5)) where row 1 is -inf except key {j1} " \
        f"at torch.finfo(float64).min ({low:.6g}) and row 2 is -inf except key {j2} at -1e300"
    expect_close(run(student, what, q, k, v, attn_mask=mask)["out"], reference(q, k, v, mask),
                 what + " (the text: a float mask is 'added to the scores', '0 keeps a pair, -inf removes it, anything "
                 "else biases it'; only a query whose keys are all masked out, at -inf, gets zeros: a query with one "
                 "key left at a finite score gets that key's value, as PyTorch returns)", **TOL)


@pytest.mark.essential
@pytest.mark.parametrize("ls", [(4, 4), (3, 7), (6, 2), (1, 5)], ids=["L=S", "L<S", "L>S", "L=1"])
def test_causal(student, gen, ls):
    """is_causal=True: query i sees keys j <= i, the top-left triangle also when L != S"""
    L, S = ls
    q, k, v = rand(gen, 2, L, 4), rand(gen, 2, S, 4), rand(gen, 2, S, 3)
    what = f"{FN}(q (2, {L}, 4), k (2, {S}, 4), v (2, {S}, 3), is_causal=True)"
    expect_close(run(student, what, q, k, v, is_causal=True)["out"], reference(q, k, v, is_causal=True),
                 what + " (the allowed pairs are torch.ones(L, S).tril())", **TOL)


@pytest.mark.parametrize("kind", ["bool mask", "is_causal"])
def test_masked_pairs_weigh_exactly_zero(student, gen, kind):
    """a masked pair weighs exactly 0 (its score is -inf), also when every score left is below -1e9"""
    q, k, v = rand(gen, 2, 5, 6, scale=1e5), rand(gen, 2, 4, 6, scale=1e5), rand(gen, 2, 4, 3)
    kw, mask = ({"is_causal": True}, None) if kind == "is_causal" else ({}, torch.rand(5, 4, generator=gen) > 0.4)
    if mask is not None:
        kw["attn_mask"] = mask
    what = f"{FN}(q (2, 5, 6), k (2, 4, 6), v (2, 4, 3), {'is_causal=True' if mask is None else 'attn_mask=bool (5, 4)'})" \
        " with q and k entries of size ~1e5 (scores of about +-1e10)"
    want = reference(q, k, v, mask, is_causal=mask is None)
    expect_close(run(student, what, q, k, v, **kw)["out"], want, what + " (an excluded pair scores -inf, not a large "
                 "finite negative: it must weigh exactly 0 even when every allowed score is lower still, and only a "
                 "query with no key left gives zeros)", **TOL)


@pytest.mark.parametrize("kind", ["bool", "float -inf"])
def test_fully_masked_rows(student, gen, kind):
    """a query with no key left gives zeros, and zero (finite) gradients, as PyTorch 2.14 does, also when there is a
    single key (S = 1)"""
    q, k, v = rand(gen, 2, 4, 3), rand(gen, 2, 6, 3), rand(gen, 2, 6, 2)
    keep = torch.rand(2, 4, 6, generator=gen) > 0.3
    keep[0, 1] = False
    keep[1, 3] = False
    keep[:, 0, 2] = True  # rows 0 keep at least one key
    mask = keep if kind == "bool" else torch.zeros(2, 4, 6, dtype=f64).masked_fill(~keep, float("-inf"))
    what = f"{FN}(q (2, 4, 3), k, v, attn_mask={kind} (2, 4, 6)) where query 1 of batch 0 and query 3 of batch 1 " \
           f"have every key masked"
    out = run(student, what, q, k, v, attn_mask=mask)["out"]
    expect_close(out, reference(q, k, v, mask), what + " (those rows are zeros, as PyTorch returns)", **TOL)
    inputs = [t.clone().requires_grad_(True) for t in (q, k, v)]
    jacobian_vs_reference(student, "sdpa_vjp", inputs + [mask],
                          lambda a, b, c, m: F.scaled_dot_product_attention(a, b, c, attn_mask=m),
                          what + " (gradients must be finite: zero where a row has no key)", gen=gen, **TOL)
    # one key only (S = 1), masked for query 1 (round 29: "one key weighs 1 whatever its bias" forgets a -inf)
    one = mask[..., :1].clone()
    one[:, 1] = False if kind == "bool" else float("-inf")
    one[:, 0] = True if kind == "bool" else 0.0
    what = f"{FN}(q (2, 4, 3), k (2, 1, 3), v (2, 1, 2), attn_mask={kind} (2, 4, 1)) where the one key is masked " \
        f"for query 1 (and query 0 keeps it)"
    out = run(student, what, q, k[:, :1], v[:, :1], attn_mask=one)["out"]
    expect_close(out, reference(q, k[:, :1], v[:, :1], one), what + " (a single key removed by the mask leaves the "
                 "query no key: a row of zeros, as PyTorch returns, not that key's value)", **TOL)


@pytest.mark.parametrize("case", ["plain", "causal", "float mask", "broadcast", "dropout"])
def test_gradients(student, gen, case):
    """gradients with respect to q, k, v and a float mask are PyTorch's (the judge's own with dropout_p > 0)"""
    q, k, v = rand(gen, 2, 4, 3), rand(gen, 2, 5, 3), rand(gen, 2, 5, 2)
    if case == "broadcast":
        q = rand(gen, 3, 1, 4, 3)
    inputs = [t.requires_grad_(True) for t in (q, k, v)]
    causal = case == "causal"
    if case == "dropout":  # the draw order is the notebook's: autograd through the judge's own rule
        seed = int(torch.randint(0, 2**31 - 1, (), generator=gen))
        what = f"the gradients of <g, {FN}(q (2, 4, 3), k (2, 5, 3), v (2, 5, 2), dropout_p=0.3, generator seeded " \
            f"{seed})> (dropout is for training: the result must stay differentiable; do not modify softmax's " \
            f"output in place)"
        jacobian_vs_reference(student, "sdpa_vjp", inputs, lambda *t: dropout_reference(*t, 0.3, seed)[0], what,
                              gen=gen, dropout_p=0.3, seed=seed, **TOL)
        return
    if case == "float mask":
        inputs.append(rand(gen, 4, 5).requires_grad_(True))
    what = f"the gradients of <g, {FN}(q {tuple(q.shape)}, k (2, 5, 3), v (2, 5, 2)" + \
        (", attn_mask=float (4, 5) requiring grad" if case == "float mask" else "") + \
        (", is_causal=True" if causal else "") + ")>"
    jacobian_vs_reference(student, "sdpa_vjp", inputs, lambda *t: reference(*t, is_causal=causal), what, gen=gen,
                          is_causal=causal, **TOL)


@pytest.mark.parametrize("dtype", [torch.float32, f64, torch.float16])
def test_keeps_dtype(student, gen, dtype):
    """the result has q's dtype (and PyTorch's values), float16 included, with a boolean mask (one query with no key
    left: a row of zeros in q's dtype) and is_causal too"""
    q, k, v = (rand(gen, 2, 3, 4).to(dtype) for _ in range(3))
    mask = torch.rand(3, 3, generator=gen) > 0.4
    mask[:, 0] = True  # queries 0 and 2 keep a key
    mask[1] = False  # query 1 has none: zeros, not NaN (a denominator clamped to 1e-30 is 0 in float16)
    tol = {"atol": 5e-3, "rtol": 5e-3} if dtype == torch.float16 else {"atol": 1e-5, "rtol": 1e-5}
    for kw, name in (({}, ""), ({"attn_mask": mask}, ", attn_mask=bool (3, 3) where query 1 has no key left"),
                     ({"is_causal": True}, ", is_causal=True")):
        what = f"{FN}(q, k, v{name}) for {dtype} inputs of shape (2, 3, 4)"
        out = run(student, what, q, k, v, **kw)["out"]
        expect_equal(out.dtype, dtype, f"the dtype of {what}")
        expect_close(out, reference(q, k, v, kw.get("attn_mask"), is_causal=bool(kw.get("is_causal"))),
                     what + " (an excluded pair scores -inf in q's dtype: a finite fill such as -1e30 does not exist "
                     "in float16; a query with no key left gives a row of zeros in q's dtype, as PyTorch's)", **tol)


def first_draw(q, k, seed):
    """The entry [0, ..., 0, 0] (query 0, key 0: allowed even with is_causal) of the draw u the rule makes."""
    shape = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2]) + (q.shape[-2], k.shape[-2])
    return torch.rand(shape, generator=torch.Generator().manual_seed(seed), dtype=q.dtype).flatten()[0].item()


def rounding_draw(q, k, v, seed):
    """For float16 inputs: the value p of a draw u (made in float16, as the rule says) that lies above the float32
    draw from the same generator state at the same place, at the pair whose dropped weight moves the output most.
    With dropout_p = p the rule keeps that weight (u >= p); a draw made in float32 (or any other dtype) drops it."""
    shape = torch.broadcast_shapes(q.shape[:-2], k.shape[:-2]) + (q.shape[-2], k.shape[-2])
    u = torch.rand(shape, generator=torch.Generator().manual_seed(seed), dtype=q.dtype)
    u32 = torch.rand(shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float32)
    w = torch.softmax((q.double() @ k.double().transpose(-2, -1)) / math.sqrt(q.shape[-1]), dim=-1)
    effect = w * v.double().abs().amax(dim=-1).unsqueeze(-2)  # weight of pair (i, j) times the size of v_j
    effect = effect.masked_fill(~(u.double() > u32.double()), -1.0)
    return u.flatten()[int(effect.flatten().argmax())].item()


def dropout_reference(q, k, v, p, seed, mask=None, is_causal=False, u_dtype=None):
    """The notebook's rule: one torch.rand of the weights' shape and dtype from the generator, keep u >= p.
    u_dtype: the dtype of the draw when q is given in another one (float16 inputs computed in float64)."""
    scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    if is_causal:
        mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool).tril()
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else scores + mask
    w = torch.softmax(scores, dim=-1)
    g = torch.Generator().manual_seed(seed)
    u = torch.rand(w.shape, generator=g, dtype=u_dtype or w.dtype)
    out = (w * (u >= p) / (1 - p)) @ v
    return out, torch.rand(4, generator=g, dtype=f64)


@pytest.mark.parametrize("case", ["plain", "causal", "broadcast", "float32", "float16"])
def test_dropout_from_generator(student, gen, case):
    """dropout_p > 0: one uniform draw of the weights' shape and dtype from the generator (float16 included), keep
    u >= p, scale 1/(1-p)"""
    dtype = {"float32": torch.float32, "float16": torch.float16}.get(case, f64)
    q, k, v = rand(gen, 2, 5, 4, dtype=dtype), rand(gen, 2, 6, 4, dtype=dtype), rand(gen, 2, 6, 3, dtype=dtype)
    if case == "broadcast":
        q = rand(gen, 3, 1, 5, 4)
    seed = int(torch.randint(0, 2**31 - 1, (), generator=gen))
    if dtype == torch.float16:  # p equal to a float16 draw that a float32 draw of the same bits falls below
        tie = rounding_draw(q, k, v, seed)
        tie_note = " where p equals a float16 draw u that lies above the float32 draw at its place: u is drawn in " \
            "w's dtype (float16 here), and u >= p keeps that weight"
    else:
        tie = first_draw(q, k, seed)  # p equal to one draw: that weight is kept (u >= p), not dropped
        tie_note = " where p equals the draw u of query 0, key 0 (u >= p keeps it)"
    for p in (0.3, 0.75, tie):
        causal = case == "causal"
        what = f"{FN}(q {tuple(q.shape)}, k (2, 6, 4), v (2, 6, 3), dropout_p={p}" + \
            (", is_causal=True" if causal else "") + f", generator seeded {seed}) ({dtype})" + \
            (tie_note if p == tie else "")
        res = run(student, what, q, k, v, dropout_p=p, is_causal=causal, seed=seed)
        if dtype == torch.float16:  # the rule's draw in float16, the arithmetic in float64
            want, nxt = dropout_reference(q.double(), k.double(), v.double(), p, seed, u_dtype=dtype)
            expect_equal(res["out"].dtype, dtype, f"the dtype of {what}")
        else:
            want, nxt = dropout_reference(q, k, v, p, seed, is_causal=causal)
        tol = {f64: TOL, torch.float32: {"atol": 1e-5, "rtol": 1e-5}}.get(dtype, {"atol": 1e-2, "rtol": 1e-2})
        expect_close(res["out"], want, what + " (draw u = torch.rand(w.shape, generator=generator, dtype=w.dtype) "
                     "once, after the softmax; keep u >= p and divide by 1 - p)", **tol)
        expect_close(res["next"], nxt, f"the generator's next draws after {what} (exactly one draw of the "
                     f"weights' shape, no other)", atol=0, rtol=0)


def test_dropout_default_generator(student, gen):
    """dropout_p > 0 with generator=None: the draw comes from the global generator (torch.rand's default)"""
    q, k, v = rand(gen, 2, 5, 4), rand(gen, 2, 6, 4), rand(gen, 2, 6, 3)
    seed = int(torch.randint(0, 2**31 - 1, (), generator=gen))
    what = f"torch.manual_seed({seed}); {FN}(q (2, 5, 4), k (2, 6, 4), v (2, 6, 3), dropout_p=0.4) (no generator)"
    res = run(student, what, q, k, v, dropout_p=0.4, global_seed=seed)
    want, nxt = dropout_reference(q, k, v, 0.4, seed)
    expect_close(res["out"], want, what + " (u = torch.rand(w.shape, generator=None, ...) draws from the global "
                 "generator that torch.manual_seed seeded, not from a generator of your own)", **TOL)
    expect_close(res["next"], nxt, f"the global generator's next draws after {what} (exactly one draw of the "
                 f"weights' shape from it)", atol=0, rtol=0)


@pytest.mark.parametrize("mode", ["no_grad", "inference"])
def test_dropout_in_every_grad_mode(student, gen, mode):
    """dropout_p > 0 drops under torch.no_grad() and torch.inference_mode() too (the same draw, the same result)"""
    q, k, v = rand(gen, 2, 5, 4), rand(gen, 2, 6, 4), rand(gen, 2, 6, 3)
    seed = int(torch.randint(0, 2**31 - 1, (), generator=gen))
    ctx = {"no_grad": "torch.no_grad()", "inference": "torch.inference_mode()"}[mode]
    what = f"with {ctx}: {FN}(q (2, 5, 4), k (2, 6, 4), v (2, 6, 3), dropout_p=0.5, generator seeded {seed})"
    res = run(student, what, q, k, v, dropout_p=0.5, seed=seed, grad_mode=mode)
    want, nxt = dropout_reference(q, k, v, 0.5, seed)
    expect_close(res["out"], want, what + " (dropout_p, not the grad mode, says whether to drop: the same draw and "
                 "the same dropped weights as with autograd on)", **TOL)
    expect_close(res["next"], nxt, f"the generator's next draws after {what} (exactly one draw of the weights' "
                 f"shape, as with autograd on)", atol=0, rtol=0)


def test_no_draw_without_dropout(student, gen):
    """dropout_p == 0 draws nothing from the generator"""
    q, k, v = rand(gen, 2, 3, 4), rand(gen, 2, 5, 4), rand(gen, 2, 5, 2)
    what = f"{FN}(q, k, v, dropout_p=0.0, generator=g)"
    res = run(student, what, q, k, v, dropout_p=0.0, seed=7)
    expect_close(res["out"], reference(q, k, v), what, **TOL)
    fresh = torch.rand(4, generator=torch.Generator().manual_seed(7), dtype=f64)
    expect_close(res["next"], fresh, f"the generator's draws after {what} (it must be left untouched)",
                 atol=0, rtol=0)


def test_arguments_by_position(student, gen):
    """the arguments after v by position, in the signature's order: attn_mask, is_causal, scale, dropout_p,
    generator"""
    q, k, v = rand(gen, 2, 4, 3), rand(gen, 2, 5, 3), rand(gen, 2, 5, 2)
    seed = int(torch.randint(0, 2**31 - 1, (), generator=gen))
    mask = torch.rand(4, 5, generator=gen) > 0.4
    mask[:, 0] = True
    cases = [
        ([None, True], None, reference(q, k, v, is_causal=True), "None, True", "is_causal=True"),
        ([None, False, 0.5], None, reference(q, k, v, scale=0.5), "None, False, 0.5", "scale=0.5"),
        ([mask, False, None, 0.3], seed, dropout_reference(q, k, v, 0.3, seed, mask=mask)[0],
         f"attn_mask=bool (4, 5), False, None, 0.3, generator seeded {seed}", "dropout_p=0.3 from that generator"),
    ]
    for args, s, want, shown, meant in cases:
        what = f"{FN}(q (2, 4, 3), k (2, 5, 3), v (2, 5, 2), {shown}) (every argument by position: {meant})"
        res = student.call("sdpa_positional", q=q, k=k, v=v, args=args, seed=s)
        expect("error" not in res, f"{what} raised {res.get('error')}")
        expect_close(res["out"], want, what + " (the task's signature fixes the order: scaled_dot_product_attention(q, "
                     "k, v, attn_mask=None, is_causal=False, scale=None, dropout_p=0.0, generator=None))", **TOL)


@pytest.mark.task("sdpa", weight=0.1)  # the right answer is a constant ("raised X"): worth little
@pytest.mark.parametrize("kind", ["bool", "float"])
def test_rejects_mask_with_causal(student, gen, kind):
    """passing attn_mask (boolean or float) and is_causal=True together raises ValueError"""
    q = rand(gen, 2, 3, 4)
    mask = torch.ones(3, 3, dtype=torch.bool) if kind == "bool" else rand(gen, 3, 3)
    res = student.call("sdpa_both_masks", q=q, k=q, v=q, mask=mask)
    expect_raises(res, "ValueError", f"{FN}(q, k, v, attn_mask={kind} (3, 3), is_causal=True) (either kind of mask "
                  f"with is_causal=True)")


def expect_on_meta(res, what, shapes):
    """A meta-device probe's result: no error, every output on meta with the expected shape."""
    expect("error" not in res, f"{what} on the meta device (the grader's stand-in for a GPU: a tensor made without "
           f"device= lands on the CPU) raised {res.get('error')}: create masks and random draws on the inputs' device "
           f"(device=q.device)")
    expect(res["devices"] == ["meta"] * len(shapes) and res["shapes"] == [list(s) for s in shapes],
           f"{what} on the meta device: expected outputs of shapes {[list(s) for s in shapes]} on meta, got shapes "
           f"{res['shapes']} on {res['devices']}")


@pytest.mark.parametrize("case", ["plain", "causal", "bool mask", "float mask", "dropout", "dropout, generator=None"])
def test_on_another_device(student, gen, case):
    """on inputs on a device other than the default (meta, a GPU stand-in), the causal mask and the dropout draw are
    made on the inputs' device and the result is there (the masks leave query 0 no key: what zeroes its row is made
    there too); with generator=None the draw comes from that device's own
    global generator (torch.rand's default), never the CPU's torch.default_generator, which a GPU refuses"""
    n, L, S, E, Ev = (int(torch.randint(lo, hi, (), generator=gen)) for lo, hi in ((1, 4), (2, 7), (2, 7), (2, 6), (1, 5)))
    kw = {"q_shape": [n, L, E], "k_shape": [n, S, E], "v_shape": [n, S, Ev]}
    if case == "causal":
        kw["is_causal"] = True
    elif case.endswith("mask"):
        kw.update(mask_shape=[L, S], mask_kind=case.split()[0])
    elif case.startswith("dropout"):
        kw["dropout_p"] = 0.25
        kw["global_draw"] = case.endswith("None")
    what = f"{FN}(q ({n}, {L}, {E}), k ({n}, {S}, {E}), v ({n}, {S}, {Ev}), {case}" + \
        (f" ({L}, {S}) where query 0 has no key left)" if case.endswith("mask") else ")")
    if case.endswith("None"):
        what += " (the text: with generator=None the draw comes from the global generator, torch.rand's default, " \
            "of the inputs' device; the probe refuses, as a GPU does, a random op handed a generator of another device)"
    expect_on_meta(student.call("sdpa_on_meta", **kw), what, [(n, L, Ev)])


@pytest.mark.essential
def test_does_not_call_pytorch_attention(student, gen):
    """written from tensor operations: no scaled_dot_product_attention op runs inside"""
    q, k, v = rand(gen, 2, 3, 4), rand(gen, 2, 5, 4), rand(gen, 2, 5, 2)
    res = run(student, f"{FN}(q, k, v)", q, k, v, is_causal=False)
    used = [op for op in res["ops"] if "scaled_dot_product" in op or "multi_head" in op
            or "_safe_softmax" in op]  # PyTorch's math path names no attention op (red team 18)
    expect(not used, f"{FN} ran PyTorch's own attention ({', '.join(used)}): write it from @, softmax and masks")
    expect_close(res["out"], reference(q, k, v), f"{FN}(q (2, 3, 4), k (2, 5, 4), v (2, 5, 2))", **TOL)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=tensors(shape=(2, 2, 3, 4)), k=tensors(shape=(2, 2, 5, 4)), v=tensors(shape=(2, 2, 5, 3)),
       causal=st.booleans())
def test_any_layout_and_values(student, q, k, v, causal):
    """any memory layout (transposed, strided, offset, stride 0, two leading dimensions that do not merge into one)
    and values (wide, many ties) of q, k, v"""
    what = (f"{FN}(q, k, v, is_causal={causal}) with q strides {q.stride()}, k strides {k.stride()}, v strides "
            f"{v.stride()}, max |q| {q.abs().max().item():.3g}")
    out = run(student, what, q, k, v, is_causal=causal)["out"]
    expect_close(out, reference(q, k, v, is_causal=causal), what, atol=1e-9, rtol=1e-8)
