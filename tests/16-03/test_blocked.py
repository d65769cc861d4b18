"""Hidden checks of blocked_attention (exercise 6): F.scaled_dot_product_attention's values and gradients within
the stated tolerances, and no tensor as large as the score matrix."""
import pytest
import torch
import torch.nn.functional as F

from course.judge.expect import expect, expect_close, expect_equal, fail, jacobian_vs_reference
from course.judge.probelib import relayout

pytestmark = pytest.mark.task("blocked")
f64 = torch.float64
FN = "blocked_attention"
TOL64 = {"atol": 1e-10, "rtol": 1e-10}
TOL32 = {"atol": 1e-4, "rtol": 1e-4}


def run(student, what, q, k, v, block_size, **kw):
    res = student.call("blocked", q=q, k=k, v=v, block_size=block_size, **kw)
    if not isinstance(res["out"], torch.Tensor):
        fail(f"{what} returned {res['out']}, not a tensor")
    ops = res.get("ops")
    if not isinstance(ops, list) or not all(isinstance(op, str) for op in ops):
        fail(f"{what}: the probe's list of operations came back as {type(ops).__name__}")
    foreign = res.get("foreign")
    if not isinstance(foreign, list) or not all(isinstance(op, str) for op in foreign):
        fail(f"{what}: the probe's list of operations of other registries came back as {type(foreign).__name__}")
    if foreign:  # an op of the submission's own registry: one opaque op to the log (red team 21)
        fail(f"{what} ran {', '.join(foreign[:3])}, an operator of its own registry (torch.library) whose inside no "
             f"op log sees: the clause 'the tiles are yours, written from tensor operations' asks for PyTorch's own "
             f"tensor operations")
    fused = sorted({op for op in ops if "scaled_dot_product" in op or "attention" in op or "_safe_softmax" in op})
    if fused:  # one fused op tiles the keys its own way, out of the probe's sight (red team 18)
        fail(f"{what} ran PyTorch's own attention ({', '.join(fused)}): the clause 'reads the keys and values once, "
             f"in consecutive tiles of block_size positions, with the online softmax' asks for the tiles to be "
             f"written from tensor operations")
    return res


CASES = [  # leading dims, L, S, E, Ev, block sizes
    ((), 4, 9, 3, 2, (1, 2, 9)),
    ((2,), 5, 11, 4, 3, (3, 4, 16)),
    ((2, 3), 6, 8, 5, 4, (4, 5)),
    ((1,), 1, 1, 2, 2, (1, 3)),
    ((3,), 7, 2, 4, 6, (1, 2)),
    ((), 1, 3, 1, 2, (1, 2)),
    ((2,), 0, 5, 3, 2, (2,)),  # no query: an empty (2, 0, 2)
    ((0, 2), 3, 4, 2, 2, (3,)),  # an empty batch: (0, 2, 3, 2)
]


@pytest.mark.essential
@pytest.mark.parametrize("lead,L,S,E,Ev,blocks", CASES, ids=[f"{c[0]}-L{c[1]}-S{c[2]}" for c in CASES])
def test_matches_torch(student, gen, lead, L, S, E, Ev, blocks):
    """equals F.scaled_dot_product_attention for tiles that divide S, do not, are 1 or exceed S; no query (L = 0) or
    an empty batch gives an empty result"""
    q, k, v = (torch.randn(*lead, n, d, generator=gen, dtype=f64) for n, d in ((L, E), (S, E), (S, Ev)))
    want = F.scaled_dot_product_attention(q, k, v)
    for b in blocks:
        what = f"{FN}(q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}, block_size={b})"
        expect_close(run(student, what, q, k, v, b)["out"], want, what, **TOL64)


@pytest.mark.essential
@pytest.mark.parametrize("ls", [(5, 5), (3, 10), (8, 3)], ids=["L=S", "L<S", "L>S"])
def test_causal(student, gen, ls):
    """is_causal=True is PyTorch's top-left triangle, across tile boundaries"""
    L, S = ls
    q, k, v = torch.randn(2, L, 4, generator=gen, dtype=f64), torch.randn(2, S, 4, generator=gen, dtype=f64), \
        torch.randn(2, S, 3, generator=gen, dtype=f64)
    want = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    for b in (1, 2, 4):
        what = f"{FN}(q (2, {L}, 4), k (2, {S}, 4), v, block_size={b}, is_causal=True)"
        expect_close(run(student, what, q, k, v, b, is_causal=True)["out"], want, what, **TOL64)


@pytest.mark.parametrize("scale", [0.0, 0.3, 3.0, -0.8])
def test_custom_scale(student, gen, scale):
    """a given scale replaces 1/sqrt(E), zero and negative scales included, with and without is_causal"""
    q, k, v = (torch.randn(2, n, 4, generator=gen, dtype=f64) for n in (3, 7, 7))
    for causal in (False, True):
        what = f"{FN}(q (2, 3, 4), k (2, 7, 4), v (2, 7, 4), block_size=3, scale={scale}, is_causal={causal})" + \
            (" (the scores are q @ k^T times scale; the causal mask then removes pairs from them)" if causal else "")
        # PyTorch 2.14's CPU kernel gives NaN for is_causal with a scale <= 0: its explicit boolean mask does not
        mask = torch.ones(3, 7, dtype=torch.bool).tril() if causal else None
        expect_close(run(student, what, q, k, v, 3, scale=scale, is_causal=causal)["out"],
                     F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale), what, **TOL64)


@pytest.mark.parametrize("dtype", [torch.float32, f64])
@pytest.mark.parametrize("case", ["rising max", "all very negative", "hundreds"])
def test_large_scores(student, gen, dtype, case):
    """scores in the hundreds, a maximum that keeps rising from tile to tile, and rows whose scores are all far
    below zero: finite, within 1e-10 (float64) or 1e-4 (float32)"""
    L, S, E = 4, 12, 4
    q = torch.randn(2, L, E, generator=gen, dtype=f64)
    k = torch.randn(2, S, E, generator=gen, dtype=f64)
    u = torch.randn(2, 1, E, generator=gen, dtype=f64)
    u = u / u.norm(dim=-1, keepdim=True)  # one direction per batch element that every query shares
    if case == "rising max":  # key j points along the queries more and more: the running max grows in every tile
        q = 3 * u + 0.2 * q
        k = u * torch.linspace(0.5, 8.0, S, dtype=f64)[:, None] + 0.1 * k
    elif case == "all very negative":  # every score is around -500 (-250 after scaling): exp underflows in float32
        q = 20 * u + 0.3 * q
        k = -25 * u + 0.3 * k
    else:
        q = 15 * q
        k = 15 * k
    v = torch.randn(2, S, 3, generator=gen, dtype=f64)
    q, k, v = q.to(dtype), k.to(dtype), v.to(dtype)
    want = F.scaled_dot_product_attention(q.double(), k.double(), v.double())
    for b in (1, 5):
        what = f"{FN}(q, k, v, block_size={b}) in {dtype} with {case} scores (from {(q @ k.mT).min().item():.4g} " \
               f"to {(q @ k.mT).max().item():.4g} before scaling)"
        out = run(student, what, q, k, v, b)["out"]
        expect_equal(out.dtype, dtype, f"the dtype of {what}")
        expect_close(out, want, what + " (rescale l and acc by exp(m_old - m_new) when the maximum grows)",
                     **(TOL64 if dtype == f64 else TOL32))


@pytest.mark.essential
def test_memory_independent_of_length(student, gen):
    """no tensor with L * S or more elements is created (nothing as large as one head's score matrix), with a scale
    of 0 or below and is_causal too"""
    L, S = 120, 96  # one head's scores, 92 kB in float64, against 12-25 kB that a tiled answer's Python objects take
    q, k, v = torch.randn(2, L, 4, generator=gen, dtype=f64), torch.randn(2, S, 4, generator=gen, dtype=f64), \
        torch.randn(2, S, 4, generator=gen, dtype=f64)
    for causal in (False, True):
        what = f"{FN}(q (2, {L}, 4), k (2, {S}, 4), v (2, {S}, 4), block_size=8, is_causal={causal})"
        res = run(student, what, q, k, v, 8, is_causal=causal, traced=True)
        n, op = res["largest"]
        expect(n < L * S, f"{what} created a tensor of {n} elements (by aten.{op}); one head's full score matrix "
               f"has L * S = {L * S}: keep only one (L, block_size) tile of scores at a time")
        # work done out of torch (numpy, Python lists) makes no op: Python's own allocators count it (red team 20)
        expect(res.get("py_traced") is True, f"{what}: the count of the memory Python allocated during the call was "
               f"stopped or restarted inside it (tracemalloc); the clause 'no tensor as large as the score matrix' "
               f"is checked with it")
        py, full = res.get("py_peak"), L * S * q.element_size()
        expect(isinstance(py, int) and py < full, f"{what}: Python's allocators held {py} bytes at once during the "
               f"call (numpy arrays, lists), where one head's score matrix takes L * S * {q.element_size()} = {full}: "
               f"compute the tiles with tensor operations, one (L, block_size) tile of scores at a time, not the "
               f"scores outside torch")
        expect_close(res["out"], F.scaled_dot_product_attention(q, k, v, is_causal=causal), what, **TOL64)
    # the case the text singles out, is_causal with a scale <= 0, tiles too (round 29: the boolean mask
    # torch.ones(L, S).tril() built whole there); values against PyTorch's with that mask
    what = f"{FN}(q (2, {L}, 4), k (2, {S}, 4), v (2, {S}, 4), block_size=8, is_causal=True, scale=-0.5)"
    res = run(student, what, q, k, v, 8, is_causal=True, scale=-0.5)
    n, op = res["largest"]
    expect(n < L * S, f"{what} created a tensor of {n} elements (by aten.{op}); one head's full score matrix has "
           f"L * S = {L * S}: with a scale of 0 or below too, mask each (L, block_size) tile on its own (the text's "
           f"torch.ones(L, S).tril() says which pairs are removed, not a tensor to build)")
    expect_close(res["out"], F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(L, S, dtype=torch.bool).tril(),
                                                            scale=-0.5), what, **TOL64)


@pytest.mark.parametrize("causal", [False, True])
def test_gradients(student, gen, causal):
    """gradients with respect to q, k and v are PyTorch's"""
    b = int(torch.randint(1, 5, (), generator=gen))  # tiles of 1 to 4 keys over 7: a shorter last tile or none
    inputs = [torch.randn(2, n, d, generator=gen, dtype=f64).requires_grad_(True) for n, d in ((5, 3), (7, 3), (7, 2))]
    what = f"the gradients of <g, {FN}(q (2, 5, 3), k (2, 7, 3), v (2, 7, 2), block_size={b}, is_causal={causal})>"
    jacobian_vs_reference(student, "blocked_vjp", inputs,
                          lambda a, b, c: F.scaled_dot_product_attention(a, b, c, is_causal=causal), what, gen=gen,
                          block_size=b, is_causal=causal, atol=1e-10, rtol=1e-8)


def test_tiles_of_block_size(student, gen):
    """the keys are read block_size at a time: no tensor larger than one tile of scores with a column to spare,
    (..., L, block_size + 1), or than an input or the output; the tiles are block_size keys wide, only the last one
    shorter (S % block_size keys)"""
    L, S = int(torch.randint(30, 50, (), generator=gen)), int(torch.randint(40, 70, (), generator=gen))
    q, k, v = (torch.randn(2, n, 1, generator=gen, dtype=f64) for n in (L, S, S))
    for b in (2, 3):
        bound = max(2 * L * (b + 1), 2 * S)
        for causal in (False, True):
            what = f"{FN}(q (2, {L}, 1), k (2, {S}, 1), v (2, {S}, 1), block_size={b}, is_causal={causal})"
            res = run(student, what, q, k, v, b, is_causal=causal)
            n, op = res["largest"]
            expect(n <= bound, f"{what} created a tensor of {n} elements (by aten.{op}); a tile of {b} keys' scores "
                   f"has 2 * {L} * {b} = {2 * L * b}, and nothing needs more than {bound}: read the keys and values "
                   f"in tiles of block_size positions, not larger ones")
            expect_close(res["out"], F.scaled_dot_product_attention(q, k, v, is_causal=causal), what, **TOL64)
    # the widths of the tiles: with no leading dimension, L a prime larger than every other size and E, Ev wider
    # than any tile, a tensor of L * w elements (w < E) is one made per query and key of a tile of w keys (its
    # scores, mask or weights): a tile of block_size keys and one of the S % block_size left must both appear
    b = int(torch.randint(4, 7, (), generator=gen))
    S = int(torch.randint(b + 2, 2 * b - 1, (), generator=gen))  # one whole tile and a last one of 2 .. b - 2 keys
    L, E, Ev = 37, 2 * b + 1, 2 * b + 3
    causal = bool(torch.randint(0, 2, (), generator=gen))
    q, k, v = (torch.randn(n, d, generator=gen, dtype=f64) for n, d in ((L, E), (S, E), (S, Ev)))
    what = f"{FN}(q ({L}, {E}), k ({S}, {E}), v ({S}, {Ev}), block_size={b}, is_causal={causal})"
    res = run(student, what, q, k, v, b, is_causal=causal)
    expect_close(res["out"], F.scaled_dot_product_attention(q, k, v, is_causal=causal), what, **TOL64)
    numels = res.get("numels")
    if not isinstance(numels, list):
        fail(f"{what}: the probe returned {type(numels).__name__} for the sizes of the tensors made")
    widths = sorted({n // L for n in numels if isinstance(n, int) and n > 0 and n % L == 0 and n // L < E})
    for w, which in ((b, "a whole tile"), (S % b, "the last tile")):
        expect(w in widths, f"{what}: no tensor of {L} x {w} elements (the scores of {which}, {w} keys, for the {L} "
               f"queries) was made; the tiles seen were {[x for x in widths if x > 1]} keys wide. Read the keys in "
               f"consecutive tiles of exactly block_size = {b} positions ({S} keys: tiles of "
               f"{', '.join([str(b)] * (S // b) + [str(S % b)])}), not {S} split into tiles of another width")


def test_tiles_start_at_the_first_key(student, gen):
    """the tiles start at key 0: block_size keys each, in order, and only the LAST one shorter (S % block_size keys),
    never a short tile first"""
    # as in test_tiles_of_block_size: no leading dimension, L a prime larger than every other size and E, Ev wider than
    # any tile, so a tensor of L * w elements (1 < w < E) is one made per query and key of a tile of w keys; the first
    # such tensor of a whole tile's width must come before the first of the short tile's
    b = int(torch.randint(5, 8, (), generator=gen))
    S = int(torch.randint(b + 3, 2 * b - 1, (), generator=gen))  # one whole tile, then a last one of 3 .. b - 2 keys
    L, E, Ev = 37, 2 * b + 1, 2 * b + 3
    causal = bool(torch.randint(0, 2, (), generator=gen))
    q, k, v = (torch.randn(n, d, generator=gen, dtype=f64) for n, d in ((L, E), (S, E), (S, Ev)))
    what = f"{FN}(q ({L}, {E}), k ({S}, {E}), v ({S}, {Ev}), block_size={b}, is_causal={causal})"
    res = run(student, what, q, k, v, b, is_causal=causal)
    expect_close(res["out"], F.scaled_dot_product_attention(q, k, v, is_causal=causal), what, **TOL64)
    order = res.get("order")
    if not isinstance(order, list) or not all(isinstance(n, int) for n in order):
        fail(f"{what}: the probe returned {type(order).__name__} for the order of the tensors made")
    short = S % b
    widths = [n // L for n in order if n > 0 and n % L == 0 and n // L in (b, short)]
    expect(bool(widths) and widths[0] == b, f"{what}: the first tile made was {widths[0] if widths else '?'} keys "
           f"wide (tile widths in the order first seen: {widths}); expected tiles of {b} keys from key 0 and the "
           f"{short} keys left last ({S} keys: {', '.join([str(b)] * (S // b) + [str(short)])}). The text: 'in "
           f"consecutive tiles of block_size positions (the last tile may be shorter)'")


def test_one_pass(student, gen):
    """one pass over the tiles: every score is computed once (no first pass for the maximum); the matrix products
    do the work of q @ k^T and p @ v once each"""
    L, S = int(torch.randint(4, 9, (), generator=gen)), int(torch.randint(17, 30, (), generator=gen))
    q, k, v = (torch.randn(2, n, d, generator=gen, dtype=f64) for n, d in ((L, 6), (S, 6), (S, 1)))
    need = 2 * 2 * L * S * (6 + 1)  # the multiply-adds of the scores (E = 6) and of the weighted values (Ev = 1)
    for causal in (False, True):
        what = f"{FN}(q (2, {L}, 6), k (2, {S}, 6), v (2, {S}, 1), block_size=4, is_causal={causal})"
        res = run(student, what, q, k, v, 4, is_causal=causal)
        expect(res["flops"] <= 1.5 * need, f"{what}: its matrix products did {res['flops']} multiply-adds, where "
               f"computing each score once and weighting the values once takes {need}: read each tile of keys once "
               f"and keep the running max, denominator and accumulator (the online softmax), not a first pass "
               f"for the maximum and a second for the sums")
        expect_close(res["out"], F.scaled_dot_product_attention(q, k, v, is_causal=causal), what, **TOL64)


def test_any_layout(student, gen):
    """q, k and v in any memory layout: the head split of section 2 (a transpose(1, 2) of (B, L, H, E)), and
    strided, offset and stride-0 (broadcast) leading dimensions"""
    B, H, L, S, E, Ev = 2, 3, 5, 7, 4, 3
    heads = [torch.randn(B, n, H, d, generator=gen, dtype=f64).transpose(1, 2) for n, d in ((L, E), (S, E), (S, Ev))]
    other = [relayout(torch.randn(B, H, L, E, generator=gen, dtype=f64), "strided"),
             torch.randn(1, H, S, E, generator=gen, dtype=f64).expand(B, H, S, E),
             relayout(torch.randn(B, H, S, Ev, generator=gen, dtype=f64), "offset")]
    for (q, k, v), b, causal, name in ((heads, 3, False, "a head split: x.reshape(B, L, H, E).transpose(1, 2)"),
                                       (other, 4, True, "q strided, k expanded (stride 0) along the batch, v offset")):
        what = f"{FN}(q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}, block_size={b}, is_causal={causal}) " \
               f"with {name} (strides {q.stride()}, {k.stride()}, {v.stride()})"
        res = student.call("blocked", q=q, k=k, v=v, block_size=b, is_causal=causal)
        if not isinstance(res.get("out"), torch.Tensor):
            fail(f"{what} returned {res.get('out')}, not a tensor (a .view of the leading dimensions fails on such "
                 f"inputs: use reshape, or index without flattening)")
        expect_close(res["out"], F.scaled_dot_product_attention(q, k, v, is_causal=causal), what, **TOL64)


@pytest.mark.parametrize("causal", [False, True])
def test_on_another_device(student, gen, causal):
    """on inputs on a device other than the default (meta, a GPU stand-in), every tensor it makes (the running
    max, the causal positions) is on the inputs' device"""
    n, L, S, E, b = (int(torch.randint(lo, hi, (), generator=gen)) for lo, hi in ((1, 4), (2, 8), (2, 9), (1, 5), (1, 4)))
    res = student.call("blocked_on_meta", q_shape=[n, L, E], k_shape=[n, S, E], v_shape=[n, S, E + 1], block_size=b,
                       is_causal=causal)
    what = (f"{FN}(q ({n}, {L}, {E}), k ({n}, {S}, {E}), v ({n}, {S}, {E + 1}), block_size={b}, is_causal={causal}) "
            f"on the meta device (the grader's stand-in for a GPU: a tensor made without device= lands on the CPU)")
    expect("error" not in res, f"{what} raised {res.get('error')}: create every tensor with device=q.device")
    expect(res["devices"] == ["meta"] and res["shapes"] == [[n, L, E + 1]],
           f"{what}: expected an output of shape {[n, L, E + 1]} on meta, got {res['shapes']} on {res['devices']}")
