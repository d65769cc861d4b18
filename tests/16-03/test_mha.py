"""Hidden checks of MultiHeadAttention (exercise 2), against nn.MultiheadAttention loaded with the same state."""
import pytest
import torch
import torch.nn as nn

from course.judge.expect import expect, expect_close, expect_equal, expect_raises, fail

pytestmark = pytest.mark.task("mha")
f64 = torch.float64
TOL = {"atol": 1e-10, "rtol": 1e-8}


def torch_mha(gen, embed_dim, num_heads, bias=True, batch_first=False):
    """nn.MultiheadAttention in float64 with every parameter random (biases too: they start at zero)."""
    m = nn.MultiheadAttention(embed_dim, num_heads, bias=bias, batch_first=batch_first, dtype=f64)
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.randn(p.shape, generator=gen, dtype=f64) / embed_dim ** 0.5)
    return m.train()  # train mode with dropout 0: the plain path, never the fused inference kernel


def describe(cfg):
    return "MultiHeadAttention(" + ", ".join(f"{k}={v}" for k, v in cfg.items()) + ")"


def as_float(mask):
    """A mask in nn.MultiheadAttention's float form: a boolean True (not allowed) becomes -inf."""
    if mask.dtype != torch.bool:
        return mask
    return torch.zeros(mask.shape, dtype=f64).masked_fill(mask, float("-inf"))


def ref_form(masks):
    """The masks as PyTorch's layer takes them: a boolean mask given with a float one becomes -inf / 0 (PyTorch does
    the same itself, and warns)."""
    kinds = {m.dtype == torch.bool for m in masks.values()}
    return {k: as_float(m) for k, m in masks.items()} if len(kinds) > 1 else masks


def fresh_like(mask, gen):
    """Another mask of the same kind and shape (each call's masks are that call's): True / -inf marks a pair that is
    out, key 0 always stays in (every query keeps a key)."""
    out = torch.rand(mask.shape, generator=gen) < 0.4
    out[..., 0] = False
    if mask.dtype == torch.bool:
        return out
    return torch.randn(mask.shape, generator=gen, dtype=f64).masked_fill(out, float("-inf"))


def again_calls(gen, query, key, value, **masks):
    """Two more calls on the same module after the first: with fresh masks of the same kinds and shapes, then with
    none (a mask kept on the module from an earlier call must not apply)."""
    base = {"query": query} if key is None else {"query": query, "key": key, "value": value}
    fresh = {k: fresh_like(m, gen) for k, m in masks.items()}
    return [{**base, **fresh}, dict(base)]


def check_again(res, want, what):
    """The outputs of the calls again_calls made on the same module, against PyTorch's layer."""
    got = res.get("again")
    if not isinstance(got, list) or len(got) != len(want["again"]):
        fail(f"{what}: the probe returned {type(got).__name__} for the {len(want['again'])} later calls on the same "
             f"module")
    for i, (g, w) in enumerate(zip(got, want["again"])):
        expect_close(g, w, f"{what}, then on the same module the call {i + 2} " +
                     ("with other masks of the same kinds and shapes" if i == 0 else "with no mask at all") +
                     " (each call's masks are that call's arguments: nothing is kept from an earlier call)", **TOL)


def run(student, gen, cfg, query, key=None, value=None, grads=False, ref_masks=None, again=(), **masks):
    """ref_masks: the same masks as given to PyTorch's layer, when they differ in form only. again: more calls on the
    same module (dicts of forward's arguments), judged with check_again."""
    ref = torch_mha(gen, **cfg)
    state = {k: v.detach().clone() for k, v in ref.state_dict().items()}
    k_in = query if key is None else key
    v_in = query if value is None else value
    q_ref = query.clone().requires_grad_(grads)
    want = ref(q_ref, q_ref if key is None else k_in, q_ref if value is None else v_in, need_weights=False,
               **(masks if ref_masks is None else ref_masks))[0]
    v_out = torch.randn(want.shape, generator=gen, dtype=f64) if grads else None
    res = student.call("mha_run", cfg=cfg, state=state, query=query, key=key, value=value, v_out=v_out,
                       again=list(again), **masks)
    what = describe(cfg)
    if not isinstance(res["out"], torch.Tensor):
        fail(f"{what}(query, key, value) returned {res['out']}, not a tensor (return only the output)")
    for name, sent in masks.items():  # the caller's masks are read, never written
        after = res.get("masks_after", {}).get(name)
        if after is None or after.dtype != sent.dtype or not torch.equal(after, sent):
            n = int((after != sent).sum()) if after is not None and after.shape == sent.shape else sent.numel()
            fail(f"{what}(..., {name}=a {str(sent.dtype).replace('torch.', '')} mask of shape {tuple(sent.shape)}) "
                 f"changed the mask it was given: {n} of {sent.numel()} entries differ afterwards. Expected the "
                 f"caller's {name} unchanged (a mask is reused by every layer and call); build a new tensor "
                 f"(~mask, mask.logical_not()) instead of writing into it")
    expected = {"out": want.detach()}
    with torch.no_grad():
        expected["again"] = [ref(c["query"], c.get("key", c["query"]), c.get("value", c["query"]), need_weights=False,
                                 **ref_form({k: t for k, t in c.items() if k.endswith("mask")}))[0] for c in again]
    if grads:
        params = dict(ref.named_parameters())
        names = list(params)
        g = torch.autograd.grad(want, [q_ref] + [params[n] for n in names], v_out)
        expected["grad_query"] = g[0]
        expected["param_grads"] = dict(zip(names, g[1:]))
    return res, expected


def batch(gen, n, length, e, batch_first):
    return torch.randn((n, length, e) if batch_first else (length, n, e), generator=gen, dtype=f64)


@pytest.mark.parametrize("bias", [True, False])
def test_state_dict_layout(student, gen, bias):
    """parameters and state dict keys are nn.MultiheadAttention's (in_proj_weight (3E, E), in_proj_bias, out_proj)"""
    h = int(torch.randint(1, 5, (), generator=gen))
    cfg = {"embed_dim": h * int(torch.randint(1, 7, (), generator=gen)), "num_heads": h, "bias": bias}
    got = student.call("mha_layout", cfg=cfg)
    want = {k: list(v.shape) for k, v in nn.MultiheadAttention(**cfg).state_dict().items()}
    expect_equal(got, want, f"the state dict keys and shapes of {describe(cfg)}")


CONFIGS = [(8, 2, True), (8, 2, False), (12, 3, True), (6, 1, False), (6, 6, True)]


@pytest.mark.essential
@pytest.mark.parametrize("e,h,bf", CONFIGS, ids=[f"E{e}-H{h}-bf{bf}" for e, h, bf in CONFIGS])
def test_self_attention(student, gen, e, h, bf):
    """self attention (query is key is value) equals nn.MultiheadAttention, in either layout"""
    cfg = {"embed_dim": e, "num_heads": h, "batch_first": bf}
    x = batch(gen, 3, 5, e, bf)
    res, want = run(student, gen, cfg, x)
    expect_close(res["out"], want["out"], f"{describe(cfg)}(x, x, x) for x {tuple(x.shape)}", **TOL)


@pytest.mark.parametrize("s_len", [7, 3], ids=["S=7", "S=L"])
@pytest.mark.parametrize("bf", [True, False])
def test_cross_attention(student, gen, bf, s_len):
    """cross attention: keys and values from another sequence, of another length S or of the query's length"""
    cfg = {"embed_dim": 8, "num_heads": 4, "batch_first": bf}
    q, kv, val = batch(gen, 2, 3, 8, bf), batch(gen, 2, s_len, 8, bf), batch(gen, 2, s_len, 8, bf)
    res, want = run(student, gen, cfg, q, kv, val)
    expect_close(res["out"], want["out"],
                 f"{describe(cfg)}(query {tuple(q.shape)}, key {tuple(kv.shape)}, value {tuple(val.shape)}): three "
                 f"different tensors{' of one shape' if s_len == 3 else ''} (keys come from key, values from value, "
                 f"whatever their shapes)", **TOL)


@pytest.mark.essential
@pytest.mark.parametrize("kind", ["bool", "float"])
@pytest.mark.parametrize("bf", [True, False])
def test_key_padding_mask(student, gen, kind, bf):
    """key_padding_mask (N, S): True (or a float added to the scores) marks keys to ignore"""
    cfg = {"embed_dim": 8, "num_heads": 2, "batch_first": bf}
    q, kv = batch(gen, 3, 4, 8, bf), batch(gen, 3, 6, 8, bf)
    pad = torch.zeros(3, 6, dtype=torch.bool)
    pad[0, 4:] = True
    pad[1, 1:] = True  # only key 0 left
    pad[2, ::2] = True
    mask = pad if kind == "bool" else torch.randn(3, 6, generator=gen, dtype=f64).masked_fill(pad, float("-inf"))
    res, want = run(student, gen, cfg, q, kv, kv, key_padding_mask=mask,
                    again=again_calls(gen, q, kv, kv, key_padding_mask=mask))
    what = f"{describe(cfg)}(query, key, value, key_padding_mask={kind} (3, 6))"
    expect_close(res["out"], want["out"], f"{what} (True = ignore that key: the opposite of the boolean attn_mask of "
                 f"exercise 1)", **TOL)
    check_again(res, want, what)


@pytest.mark.parametrize("kind", ["causal bool (L, S)", "float (L, S)", "bool per head (N*H, L, S)",
                                  "float per head (N*H, L, S)"])
def test_attn_mask(student, gen, kind):
    """attn_mask (L, S) or (N * H, L, S): True marks a pair that is not allowed; a float one is added; the per-head
    entry b * H + h in either layout"""
    bf = not kind.startswith("bool per head")  # sequence first: the per-head entries are still b * H + h
    cfg = {"embed_dim": 8, "num_heads": 2, "batch_first": bf}
    x = batch(gen, 3, 5, 8, bf)
    if kind.startswith("causal"):
        mask = torch.ones(5, 5, dtype=torch.bool).triu(1)
    elif kind.startswith("float"):
        mask = torch.randn(5, 5, generator=gen, dtype=f64)
    elif kind.startswith("bool"):
        mask = torch.rand(6, 5, 5, generator=gen) < 0.4
        mask[..., 0] = False  # every query keeps a key
    else:
        mask = 2 * torch.randn(6, 5, 5, generator=gen, dtype=f64)
    res, want = run(student, gen, cfg, x, attn_mask=mask, again=again_calls(gen, x, None, None, attn_mask=mask))
    expect_close(res["out"], want["out"], f"{describe(cfg)}(x, x, x, attn_mask={kind}) (in the per-head mask, "
                 f"entry b * H + h belongs to batch element b and head h)", **TOL)
    check_again(res, want, f"{describe(cfg)}(x, x, x, attn_mask={kind})")


@pytest.mark.parametrize("bf", [True, False])
def test_gradients(student, gen, bf):
    """gradients reach the query input and every parameter, and equal PyTorch's, in self attention and in cross
    attention (keys and values from another sequence)"""
    cfg = {"embed_dim": 8, "num_heads": 2, "batch_first": bf}
    x = batch(gen, 2, 4, 8, bf)
    if bf:
        res, want = run(student, gen, cfg, x, grads=True, key_padding_mask=torch.tensor([[False] * 3 + [True]] * 2))
        what = f"the gradients of <g, {describe(cfg)}(x, x, x, key_padding_mask)>"
    else:  # cross attention: the key and value projections' gradients come from another sequence
        kv, val = batch(gen, 2, 6, 8, bf), batch(gen, 2, 6, 8, bf)
        res, want = run(student, gen, cfg, x, kv, val, grads=True,
                        key_padding_mask=torch.tensor([[False] * 5 + [True], [False] * 6]))
        what = f"the gradients of <g, {describe(cfg)}(x, key, value, key_padding_mask)> (cross attention: key and " \
            f"value (6, 2, 8), two other tensors)"
    expect_close(res["grad_query"], want["grad_query"], f"{what} with respect to x", **TOL)
    got = res["param_grads"]
    expect_equal(sorted(got), sorted(want["param_grads"]), f"the parameter names of {describe(cfg)}")
    for name, g in want["param_grads"].items():
        if got[name] is None:
            fail(f"{what}: no gradient reached the parameter {name} (is it used in forward, as a Parameter?)")
        expect_close(got[name], g, f"{what} with respect to {name}", **TOL)


def test_defaults_and_arguments_by_position(student, gen):
    """MultiHeadAttention(embed_dim, num_heads, bias=True, batch_first=False): built with no more arguments it has
    biases and takes sequence-first inputs (L, N, E); bias and batch_first by position, in that order"""
    e, h, n, length, s_len = 6, 2, 3, 4, 5
    for args, bias, bf in (((e, h), True, False), ((e, h, False), False, False), ((e, h, True, True), True, True)):
        ref = torch_mha(gen, e, h, bias=bias, batch_first=bf)
        state = {k: t.detach().clone() for k, t in ref.state_dict().items()}
        lead = (n, length) if bf else (length, n)
        query = torch.randn(*lead, e, generator=gen, dtype=f64)
        key = torch.randn(*((n, s_len) if bf else (s_len, n)), e, generator=gen, dtype=f64)
        value = torch.randn(key.shape, generator=gen, dtype=f64)
        with torch.no_grad():
            want = ref(query, key, value, need_weights=False)[0]
        what = f"MultiHeadAttention({', '.join(map(str, args))}) (every argument by position: bias={bias}, " \
            f"batch_first={bf}) on query {tuple(query.shape)}, key = value {tuple(key.shape)}"
        res = student.call("mha_positional", args=list(args), state=state, query=query, key=key, value=value)
        expect_equal(res.get("keys"), sorted(state), f"the state dict keys of {what} (those of "
                     f"nn.MultiheadAttention({e}, {h}, bias={bias}))")
        expect("error" not in res, f"{what} raised {res.get('error')}")
        expect_close(res["out"], want, what + f" against nn.MultiheadAttention({e}, {h}, bias={bias}, batch_first={bf}) "
                     f"with the same state (the text: 'MultiHeadAttention(embed_dim, num_heads, bias=True, "
                     f"batch_first=False)'; 'By default the layout is sequence first, (L, N, E)')", **TOL)


@pytest.mark.task("mha", weight=0.1)  # the right answer is a constant ("raised X"): worth little
def test_rejects_indivisible_heads(student, gen):
    """embed_dim not a multiple of num_heads raises ValueError (fewer features than heads too)"""
    h = int(torch.randint(2, 7, (), generator=gen))
    drawn = (h * int(torch.randint(1, 5, (), generator=gen)) + int(torch.randint(1, h, (), generator=gen)), h)
    for e, h in ((10, 3), drawn, (2, 4)):
        expect_raises(student.call("mha_bad_heads", embed_dim=e, num_heads=h), "ValueError",
                      f"MultiHeadAttention({e}, {h}) ({e} is not a multiple of {h})")


@pytest.mark.essential
def test_does_not_call_torch_mha(student, gen):
    """built from tensor operations: nn.MultiheadAttention and F.multi_head_attention_forward are not called"""
    cfg = {"embed_dim": 8, "num_heads": 2, "batch_first": True}
    res, want = run(student, gen, cfg, batch(gen, 2, 3, 8, True))
    used = res["calls"] + [op for op in res["ops"] if "multi_head" in op]
    expect(not used, f"{describe(cfg)} called PyTorch's multi-head attention ({', '.join(used)}): build it from "
           f"the projections, a reshape into heads and attention")
    expect_close(res["out"], want["out"], f"{describe(cfg)}(x, x, x)", **TOL)


@pytest.mark.parametrize("bf", [True, False])
def test_one_token_one_feature(student, gen, bf):
    """the smallest input: embed_dim 1, one head, one sequence of one token"""
    cfg = {"embed_dim": 1, "num_heads": 1, "batch_first": bf}
    x = batch(gen, 1, 1, 1, bf)
    res, want = run(student, gen, cfg, x)
    expect_close(res["out"], want["out"], f"{describe(cfg)}(x, x, x) for x of shape (1, 1, 1)", **TOL)


@pytest.mark.parametrize("bf", [True, False])
def test_without_bias(student, gen, bf):
    """bias=False: no biases anywhere, and forward still equals nn.MultiheadAttention(bias=False), masks included"""
    cfg = {"embed_dim": 8, "num_heads": 2, "bias": False, "batch_first": bf}
    q, kv = batch(gen, 2, 3, 8, bf), batch(gen, 2, 5, 8, bf)
    pad = torch.tensor([[False] * 5, [False, True, False, True, True]])
    res, want = run(student, gen, cfg, q, kv, kv, key_padding_mask=pad)
    expect_close(res["out"], want["out"], f"{describe(cfg)}(query {tuple(q.shape)}, key = value {tuple(kv.shape)}, "
                 f"key_padding_mask) (no in_proj_bias and no out_proj.bias)", **TOL)


BOTH = ["bool and bool", "float per head and float", "float and float", "bool and float", "float per head and bool",
        "float far below -1e9 and bool"]


@pytest.mark.parametrize("kind", BOTH)
def test_both_masks(student, gen, kind):
    """attn_mask and key_padding_mask given together both apply (a pair is out if either mask removes it), also when
    one is boolean and the other float"""
    bf = kind not in ("float and float", "bool and float")
    cfg = {"embed_dim": 8, "num_heads": 2, "batch_first": bf}
    q, kv = batch(gen, 2, 4, 8, bf), batch(gen, 2, 6, 8, bf)
    pad = torch.zeros(2, 6, dtype=torch.bool)
    pad[0, 3:] = True
    pad[1, :2] = True
    if kind == "bool and bool":
        attn = torch.rand(4, 6, generator=gen) < 0.3
        attn[:, 2:4] = False  # every query keeps a key that no mask removes
    elif kind == "float per head and float":
        attn = 2 * torch.randn(4, 4, 6, generator=gen, dtype=f64)
        pad = torch.zeros(2, 6, dtype=f64).masked_fill(pad, float("-inf"))
    elif kind == "float and float":
        attn = torch.randn(4, 6, generator=gen, dtype=f64)
        pad = torch.randn(2, 6, generator=gen, dtype=f64).masked_fill(pad, float("-inf"))
    elif kind == "bool and float":
        attn = torch.rand(4, 6, generator=gen) < 0.3
        attn[:, 2:4] = False
        pad = torch.randn(2, 6, generator=gen, dtype=f64).masked_fill(pad, float("-inf"))
    elif kind == "float far below -1e9 and bool":
        # every pair the padding keeps has a float bias near -1e10, the padded keys a bias of 0: only -inf (not a large
        # finite negative) for a boolean True keeps the padded keys out
        pad = torch.zeros(2, 6, dtype=torch.bool)
        pad[:, :2] = True
        attn = torch.zeros(4, 6, dtype=f64)
        attn[:, 2:] = torch.randn(4, 4, generator=gen, dtype=f64) - 1e10
    else:  # a float per-head attn_mask and a boolean key_padding_mask
        attn = 2 * torch.randn(4, 4, 6, generator=gen, dtype=f64)
    # PyTorch turns a boolean mask given with a float one into -inf / 0 itself (and warns): the same masks in that form
    ref_masks = {"key_padding_mask": as_float(pad), "attn_mask": as_float(attn)} if pad.dtype != attn.dtype else None
    res, want = run(student, gen, cfg, q, kv, kv, ref_masks=ref_masks, key_padding_mask=pad, attn_mask=attn,
                    again=again_calls(gen, q, kv, kv, key_padding_mask=pad, attn_mask=attn) if "far" not in kind else ())
    # scores shifted by -1e10 keep about 1e-6 of their absolute accuracy in float64
    tol = {"atol": 1e-5, "rtol": 1e-5} if "far below" in kind else TOL
    expect_close(res["out"], want["out"], f"{describe(cfg)}(query, key, value, attn_mask={tuple(attn.shape)}, "
                 f"key_padding_mask=(2, 6)), {kind} (both masks apply at once; a boolean True removes its pair, as -inf, "
                 f"whatever the kind of the other mask{', even when every allowed score is below -1e9' if 'far' in kind else ''})",
                 **tol)
    if "far" not in kind:
        check_again(res, want, f"{describe(cfg)}(query, key, value, attn_mask={kind.split(' and ')[0]}, "
                    f"key_padding_mask={kind.split(' and ')[1]})")


@pytest.mark.parametrize("bias", [True, False])
def test_on_another_device(student, gen, bias):
    """on a module and inputs on a device other than the default (meta, a GPU stand-in), every tensor forward makes
    is on that device, masks of either kind included, also when the module was first called on the CPU"""
    h = int(torch.randint(1, 4, (), generator=gen))
    e = h * int(torch.randint(1, 4, (), generator=gen))
    n, L, S = (int(torch.randint(1, 6, (), generator=gen)) for _ in range(3))
    bf = bool(torch.randint(0, 2, (), generator=gen))
    cfg = {"embed_dim": e, "num_heads": h, "bias": bias, "batch_first": bf}
    # with biases: a boolean key_padding_mask and a float (N*H, L, S) attn_mask; without: the other kinds
    kinds = {} if bias else {"key_padding_mask": "float", "attn_mask": "bool"}
    # and, without biases, a second call with a boolean (N*H, L, S) attn_mask alone (round 29)
    res = student.call("mha_on_meta", cfg=cfg, n=n, length=L, s_len=S, masks=["key_padding_mask", "attn_mask"],
                       kinds=kinds, head_bool=not bias)
    masks = "a boolean key_padding_mask and a float (N*H, L, S) attn_mask" if bias else \
        "a float key_padding_mask and a boolean (L, S) attn_mask, then a boolean (N*H, L, S) attn_mask alone"
    what = (f"{describe(cfg)}, called once on the CPU, then .to('meta')(query, key, value) with N={n}, L={L}, S={S}, "
            f"{masks}, all on meta (the grader's stand-in for a GPU: a tensor made without device= lands on the CPU)")
    expect("error" not in res, f"{what} raised {res.get('error')}: create masks on the inputs' device, and reuse "
           f"nothing forward kept on the module from a call on another device (the text: every tensor forward "
           f"creates is on the inputs' device)")
    want = [n, L, e] if bf else [L, n, e]
    calls = 1 if bias else 2
    expect(res["devices"] == ["meta"] * calls and res["shapes"] == [want] * calls,
           f"{what}: expected {calls} output(s) of shape {want} on meta, got {res['shapes']} on {res['devices']}")
