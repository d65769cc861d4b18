"""Hidden checks of KVCache and CausalSelfAttention (exercise 5): decoding in steps through a cache equals the
judge's full causal attention over the whole sequence, at every step."""
import pytest
import torch
import torch.nn.functional as F

from course.judge.expect import expect, expect_close, expect_equal, fail

pytestmark = pytest.mark.task("kv_cache")
f64 = torch.float64
TOL = {"atol": 1e-10, "rtol": 1e-8}


def random_state(gen, e):
    r = lambda *s: torch.randn(*s, generator=gen, dtype=f64) / e ** 0.5  # noqa: E731
    return {"qkv.weight": r(3 * e, e), "qkv.bias": r(3 * e), "proj.weight": r(e, e), "proj.bias": r(e)}


def heads_of(state, x, h):
    """Queries, keys and values (B, H, T, E/H) of x under the state's qkv projection."""
    b, t, e = x.shape
    q, k, v = F.linear(x, state["qkv.weight"], state["qkv.bias"]).chunk(3, dim=-1)
    return [z.reshape(b, t, h, e // h).transpose(1, 2) for z in (q, k, v)]


def full_attention(state, x, h):
    b, t, e = x.shape
    q, k, v = heads_of(state, x, h)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return F.linear(out.transpose(1, 2).reshape(b, t, e), state["proj.weight"], state["proj.bias"])


def expect_one_per_step(res, keys, n, what):
    """The reply's lists hold one entry per step the judge asked for (a shorter list would compare nothing)."""
    for key in keys:
        got = res.get(key) if isinstance(res, dict) else None
        if not isinstance(got, list) or len(got) != n:
            fail(f"{what}: expected {n} entries under {key!r}, one per step, got "
                 f"{len(got) if isinstance(got, list) else type(got).__name__}")


def decode(student, gen, e, h, b, splits):
    state = random_state(gen, e)
    x = torch.randn(b, sum(splits), e, generator=gen, dtype=f64)
    res = student.call("kv_decode", embed_dim=e, num_heads=h, state=state, x=x, splits=splits)
    expect_one_per_step(res, ("steps", "lens", "ks", "vs"), len(splits),
                        f"CausalSelfAttention({e}, {h}) decoding x ({b}, {sum(splits)}, {e}) in steps {splits}")
    return state, x, res


def expect_cache_after_each_step(state, x, h, res, splits, what):
    """cache.k and cache.v after every step: the keys and values of the positions seen, (B, H, positions, E/H)."""
    _, k, v = heads_of(state, x, h)
    b, _, e = x.shape
    seen = 0
    for i, size in enumerate(splits):
        seen += size
        where = (f"{what}, after step {i + 1} ({seen} positions seen; the text's layout is (B, H, len(cache), D) = "
                 f"({b}, {h}, {seen}, {e // h}), also for B = 1 or H = 1)")
        expect_close(res["ks"][i], k[:, :, :seen], f"cache.k {where}", **TOL)
        expect_close(res["vs"][i], v[:, :, :seen], f"cache.v {where}", **TOL)


def test_cache_container(student, gen):
    """KVCache starts empty (len 0, k and v None), update appends along the positions and returns everything held"""
    chunks = [(torch.randn(2, 3, t, 4, generator=gen, dtype=f64), torch.randn(2, 3, t, 5, generator=gen, dtype=f64))
              for t in (3, 1, 2)]
    res = student.call("cache_alone", chunks=chunks)
    expect_one_per_step(res, ("steps",), len(chunks), "KVCache fed chunks of 3, 1 and 2 positions")
    expect_equal(res["empty_len"], 0, "len(KVCache())")
    expect_equal((res["empty_k"], res["empty_v"]), ("None", "None"), "KVCache().k and KVCache().v while empty")
    held_k, held_v = [], []
    for i, ((k, v), step) in enumerate(zip(chunks, res["steps"])):
        held_k.append(k)
        held_v.append(v)
        want_k, want_v = torch.cat(held_k, dim=-2), torch.cat(held_v, dim=-2)
        what = f"KVCache after update {i + 1} (chunks of 3, 1, 2 positions of shape (2, 3, T, 4/5))"
        expect_equal(step["len"], want_k.shape[-2], f"len() of the {what}")
        expect_close(step["k"], want_k, f"cache.k of the {what}", atol=0, rtol=0)
        expect_close(step["v"], want_v, f"cache.v of the {what}", atol=0, rtol=0)
        expect_equal(len(step["returned"]), 2, f"the number of tensors update() returns ({what}): all keys, all values")
        expect_close(step["returned"][0], want_k, f"the keys update() returns ({what})", atol=0, rtol=0)
        expect_close(step["returned"][1], want_v, f"the values update() returns ({what})", atol=0, rtol=0)


@pytest.mark.essential
@pytest.mark.parametrize("e,h,b", [(8, 2, 2), (12, 3, 1), (6, 1, 3)])
def test_without_cache_is_causal_attention(student, gen, e, h, b):
    """forward(x) without a cache is causal multi-head self attention (qkv split q, k, v; heads as in section 2); the
    same x through a cache leaves its keys and values there, (B, H, T, E/H) for B = 1 and H = 1 too"""
    state, x, res = decode(student, gen, e, h, b, [5])
    expect_close(res["full"], full_attention(state, x, h),
                 f"CausalSelfAttention({e}, {h})(x) for x ({b}, 5, {e}), no cache", **TOL)
    expect_cache_after_each_step(state, x, h, res, [5], f"CausalSelfAttention({e}, {h})(x, cache) for x ({b}, 5, {e})")


@pytest.mark.essential
@pytest.mark.parametrize("e,h,b,n", [(8, 2, 2, 7), (12, 4, 1, 5)])
def test_one_token_at_a_time(student, gen, e, h, b, n):
    """one token per step: each step's output equals that row of full recomputation, and the cache holds the keys and
    values seen so far, (B, H, positions, E/H), after every step (B = 1 included)"""
    state, x, res = decode(student, gen, e, h, b, [1] * n)
    want = full_attention(state, x, h)
    expect_equal(res["lens"], list(range(1, n + 1)), f"len(cache) after each of {n} one-token steps")
    for t, got in enumerate(res["steps"]):
        expect_close(got, want[:, t:t + 1], f"CausalSelfAttention({e}, {h})(x[:, {t}:{t + 1}], cache) after {t} "
                     f"cached tokens, against full recomputation over x[:, :{t + 1}] (the new token sees every "
                     f"cached token and itself)", **TOL)
    expect_cache_after_each_step(state, x, h, res, [1] * n, f"CausalSelfAttention({e}, {h}) decoding x ({b}, {n}, "
                                 f"{e}) one token at a time")


@pytest.mark.parametrize("splits", [[3, 1, 1, 2], [1, 4, 2], [2, 2, 2, 2], [6]],
                         ids=["3+1+1+2", "1+4+2", "2+2+2+2", "6"])
def test_chunks(student, gen, splits):
    """chunks of any size after any prefix: token t of a chunk sees the cache and new tokens 0..t; the cache holds every
    position seen after each chunk"""
    e, h = 8, 2
    state, x, res = decode(student, gen, e, h, 2, splits)
    want = full_attention(state, x, h)
    start = 0
    for i, (size, got) in enumerate(zip(splits, res["steps"])):
        expect_close(got, want[:, start:start + size],
                     f"step {i + 1} of decoding in chunks {splits}: CausalSelfAttention(8, 2)(x[:, {start}:"
                     f"{start + size}], cache) with {start} cached positions (mask aligned at the bottom right; read "
                     f"len(cache) before appending)", **TOL)
        start += size
    expect_equal(res["lens"], [sum(splits[:i + 1]) for i in range(len(splits))], f"len(cache) after each chunk {splits}")
    expect_cache_after_each_step(state, x, h, res, splits, f"CausalSelfAttention(8, 2) decoding x (2, "
                                 f"{sum(splits)}, 8) in chunks {splits}")


def test_no_maximum_length(student, gen):
    """no maximum length: a sequence of more than 1024 positions, whole and through a cache that grows past 1024
    (a mask sized in advance, such as a 1024-position buffer, fails)"""
    e, h = 4, 2
    n = 1025 + int(torch.randint(0, 64, (), generator=gen))
    splits = [n - 13, 1, 5, 7]  # a long prefix, then one token and chunks past it
    state, x, res = decode(student, gen, e, h, 1, splits)
    want = full_attention(state, x, h)
    expect_close(res["full"], want, f"CausalSelfAttention({e}, {h})(x) for x (1, {n}, {e}), no cache (the text: no "
                 f"maximum length; build no mask of a fixed size in advance)", **TOL)
    start = 0
    for i, (size, got) in enumerate(zip(splits, res["steps"])):
        expect_close(got, want[:, start:start + size], f"step {i + 1} of decoding x (1, {n}, {e}) in chunks {splits}: "
                     f"CausalSelfAttention({e}, {h})(x[:, {start}:{start + size}], cache) with {start} cached "
                     f"positions (no maximum length)", **TOL)
        start += size
    expect_equal(res["lens"], [sum(splits[:i + 1]) for i in range(len(splits))], f"len(cache) after each chunk {splits}")


def test_cache_holds_the_keys(student, gen):
    """the cache holds the keys and values of every position seen, (B, H, positions, E/H)"""
    e, h = 8, 2
    state, x, res = decode(student, gen, e, h, 2, [2, 1, 3])
    _, k, v = heads_of(state, x, h)
    expect_close(res["k"], k, "cache.k after decoding 6 tokens (2 + 1 + 3) with CausalSelfAttention(8, 2)", **TOL)
    expect_close(res["v"], v, "cache.v after decoding 6 tokens (2 + 1 + 3) with CausalSelfAttention(8, 2)", **TOL)


def test_caches_are_independent(student, gen):
    """sequences decoded in turn, each with its own cache, do not mix: of other batch sizes and chunk sizes, one
    cache made while the others already hold positions"""
    e, h = 8, 2
    state = random_state(gen, e)
    xs = [torch.randn(b, t, e, generator=gen, dtype=f64) for b, t in ((1, 5), (2, 6), (1, 4))]
    splits = [[2, 1, 2], [1, 3, 0, 2], [0, 0, 1, 3]]  # per sequence and round; 0: that sequence waits
    outs = student.call("kv_interleaved", embed_dim=e, num_heads=h, state=state, xs=xs, splits=splits)
    if not isinstance(outs, list) or len(outs) != len(xs) or \
            any(not isinstance(o, list) or len(o) != sum(1 for c in sp if c) for o, sp in zip(outs, splits)):
        fail(f"three sequences decoded in turn: expected one list of outputs per sequence, one output per step "
             f"({[sum(1 for c in sp if c) for sp in splits]}), got {outs if not isinstance(outs, list) else len(outs)}")
    for i, (x, got) in enumerate(zip(xs, outs)):
        if not all(isinstance(t, torch.Tensor) for t in got):
            fail("CausalSelfAttention(x, cache) returned something other than a tensor")
        expect_close(torch.cat(got, dim=1), full_attention(state, x, h),
                     f"sequence {i} (x {tuple(x.shape)}) of three decoded in turn, each with its own KVCache, in "
                     f"chunks {[c for c in splits[i] if c]}" + (" (its cache made after the other two had taken "
                     f"3 and 4 tokens)" if i == 2 else ""), **TOL)


def test_one_token_one_feature(student, gen):
    """the smallest input: embed_dim 1, one head, one sequence decoded one token at a time"""
    state, x, res = decode(student, gen, 1, 1, 1, [1, 1])
    want = full_attention(state, x, 1)
    expect_close(res["full"], want, "CausalSelfAttention(1, 1)(x) for x of shape (1, 2, 1)", **TOL)
    for t, got in enumerate(res["steps"]):
        expect_close(got, want[:, t:t + 1], f"CausalSelfAttention(1, 1)(x[:, {t}:{t + 1}], cache), x (1, 2, 1)", **TOL)
    expect_cache_after_each_step(state, x, 1, res, [1, 1], "CausalSelfAttention(1, 1) decoding x (1, 2, 1) one token "
                                 "at a time")
    chunks = [(torch.randn(1, 1, 1, 1, generator=gen, dtype=f64), torch.randn(1, 1, 1, 1, generator=gen, dtype=f64))]
    res = student.call("cache_alone", chunks=chunks)
    expect_one_per_step(res, ("steps",), 1, "KVCache fed one position of one feature")
    step = res["steps"][0]
    expect_equal(len(step["returned"]), 2, "the number of tensors KVCache().update(k, v) returns for k, v of shape "
                 "(1, 1, 1, 1): all keys and all values")
    expect_close(step["returned"][1], chunks[0][1], "the values update() returns for one position of one feature",
                 atol=0, rtol=0)


def test_on_another_device(student, gen):
    """on a module and inputs on a device other than the default (meta, a GPU stand-in), the causal masks with and
    without a cache are made on the inputs' device, also when the module was first called on the CPU"""
    h = int(torch.randint(1, 4, (), generator=gen))
    e, b = h * int(torch.randint(1, 4, (), generator=gen)), int(torch.randint(1, 4, (), generator=gen))
    splits = [int(torch.randint(1, 4, (), generator=gen)) for _ in range(3)]
    res = student.call("kv_on_meta", embed_dim=e, num_heads=h, batch=b, splits=splits)
    what = (f"CausalSelfAttention({e}, {h}), called the same way on the CPU first, then .to('meta') on x ({b}, "
            f"{sum(splits)}, {e}), then the same length in chunks {splits} through a new KVCache, all on meta (the "
            f"grader's stand-in for a GPU: a tensor made without device= lands on the CPU)")
    expect("error" not in res, f"{what} raised {res.get('error')}: build the masks with device=x.device, and reuse no "
           f"mask kept on the module from a call on another device (the text: the masks forward builds are on x's "
           f"device)")
    want = [[b, sum(splits), e]] + [[b, t, e] for t in splits]
    expect(res["devices"] == ["meta"] * len(want) and res["shapes"] == want,
           f"{what}: expected outputs of shapes {want} on meta, got {res['shapes']} on {res['devices']}")
