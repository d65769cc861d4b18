"""Probes for 16-03: run next to the submission, return plain data only (nothing is compared here)."""
import contextlib

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

from course.judge.probelib import capture_error, get, relative_device, stand_in_device, vjp
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)


_PRODUCTS = {"mm": 0, "bmm": 0, "mv": 0, "dot": 0, "addmm": 1, "baddbmm": 1, "addmv": 1}  # op: index of its left factor


# A custom op registered by the submission (torch.library) reaches the log as one op: what its kernel runs is inside
# the mode's own handling, out of every log (red team 21: PyTorch's attention in one scored 26/29 of blocked).
_PYTORCH_NAMESPACES = frozenset({"aten", "prims"})


class _OpLog(TorchDispatchMode):
    """Names every aten op that runs, the largest tensor any op creates (numel and op name), the sizes (numel) of
    every tensor the ops create, and the multiply-adds of its matrix products (2 m k n each: mm, bmm, mv, dot and
    their add- forms)."""

    def __init__(self):
        super().__init__()
        self.names = set()
        self.foreign = set()  # ops of another registry than PyTorch's (torch.library): opaque to this log
        self.largest = (0, "")
        self.numels = set()
        self.order = []  # the sizes (numel) of the tensors made, each the first time it is seen, in order
        self.flops = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        name = str(func.overloadpacket.__name__)
        self.names.add(name)
        if getattr(func, "namespace", "aten") not in _PYTORCH_NAMESPACES:
            self.foreign.add(f"{func.namespace}::{name}")
        if name in _PRODUCTS:
            a, b = args[_PRODUCTS[name]], args[_PRODUCTS[name] + 1]
            self.flops += 2 * a.numel() * (b.shape[-1] if b.dim() > 1 else 1)
        for t in out if isinstance(out, (list, tuple)) else [out]:
            if isinstance(t, torch.Tensor):
                if t.numel() not in self.numels:
                    self.order.append(t.numel())
                self.numels.add(t.numel())
                if t.numel() > self.largest[0]:
                    self.largest = (t.numel(), name)
        return out


def _tensor(x):
    return x.detach().clone() if isinstance(x, torch.Tensor) else f"<{type(x).__name__}>"


def _gen(seed):
    return None if seed is None else torch.Generator().manual_seed(seed)


def _attempt(thunk):
    """{"out": the result} or {"error": "Type: message"} (a probe for calls that may refuse their arguments)."""
    try:
        return {"out": _tensor(thunk())}
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}


def _build(cls, args, state):
    """cls(*args) (every argument by position), its state dict keys, and the module loaded with state (None, with
    the error, when either step raises)."""
    try:
        m = cls(*args).double()
    except Exception as exc:
        return None, {"keys": None, "error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    res = {"keys": sorted(m.state_dict())}
    try:
        m.load_state_dict(state)
    except Exception as exc:
        res["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
        return None, res
    return m, res


# ------------------------------------------------------------------ exercise 1: sdpa
def sdpa(ns, q, k, v, attn_mask=None, is_causal=False, scale=None, dropout_p=0.0, seed=None, after=4,
         global_seed=None, grad_mode=None):
    """The output, and `after` draws the generator gives once the call returns (what the call left of it).

    With global_seed, no generator is passed: the global CPU generator is seeded first (and restored after).
    grad_mode: None, "no_grad" or "inference" (the call runs under torch.no_grad() or torch.inference_mode())."""
    fn = get(ns, "scaled_dot_product_attention")
    g = _gen(seed)
    kwargs = {"attn_mask": attn_mask, "is_causal": is_causal, "dropout_p": dropout_p, "generator": g}
    if scale is not None:
        kwargs["scale"] = scale
    with torch.random.fork_rng(devices=[]):
        if global_seed is not None:
            torch.default_generator.manual_seed(global_seed)
        mode = {None: contextlib.nullcontext, "no_grad": torch.no_grad, "inference": torch.inference_mode}[grad_mode]
        with _OpLog() as log, mode():
            out = fn(q, k, v, **kwargs)
        if global_seed is not None:
            nxt = torch.rand(after, dtype=torch.float64)
        else:
            nxt = torch.rand(after, generator=g, dtype=torch.float64) if g is not None else None
    return {"out": _tensor(out), "next": nxt, "ops": sorted(log.names)}


def sdpa_vjp(ns, inputs, v, is_causal=False, scale=None, dropout_p=0.0, seed=None):
    """Gradients of <v, attention(q, k, v, mask)> (v: the cotangent) for inputs [q, k, v] or [q, k, v, mask].

    With dropout_p, the dropout draw comes from a generator seeded with seed (one call, one draw)."""
    fn = get(ns, "scaled_dot_product_attention")
    extra = {} if scale is None else {"scale": scale}
    if dropout_p:
        extra.update(dropout_p=dropout_p, generator=_gen(seed))

    def call(q, k, values, mask=None):
        return fn(q, k, values, attn_mask=mask, is_causal=is_causal, **extra)
    return vjp(call, inputs, v)


def sdpa_positional(ns, q, k, v, args, seed=None):
    """scaled_dot_product_attention(q, k, v, *args): every argument after v by position; with seed, a generator
    seeded with it comes last (the signature's order: attn_mask, is_causal, scale, dropout_p, generator)."""
    fn = get(ns, "scaled_dot_product_attention")
    args = list(args) + ([_gen(seed)] if seed is not None else [])
    return _attempt(lambda: fn(q, k, v, *args))


def sdpa_both_masks(ns, q, k, v, mask):
    return capture_error(get(ns, "scaled_dot_product_attention"), q, k, v, attn_mask=mask, is_causal=True)


# ------------------------------------------------------------------ exercise 2: MultiHeadAttention
def _params(m):
    return {n: p for n, p in m.named_parameters()}


def mha_layout(ns, cfg):
    """State dict keys and shapes of a fresh MultiHeadAttention(**cfg)."""
    m = get(ns, "MultiHeadAttention")(**cfg)
    return {k: list(t.shape) for k, t in m.state_dict().items()}


def mha_bad_heads(ns, embed_dim, num_heads):
    return capture_error(get(ns, "MultiHeadAttention"), embed_dim, num_heads)


def mha_run(ns, cfg, state, query, key=None, value=None, key_padding_mask=None, attn_mask=None, v_out=None,
            again=()):
    """Output of a MultiHeadAttention loaded with state; key None means self attention (the same tensor thrice).

    With v_out, also the gradients of <v_out, output> with respect to the query input and each parameter. again: more
    calls on the same module afterwards, each a dict of forward's arguments (key None: self attention); their
    outputs under "again"."""
    m = get(ns, "MultiHeadAttention")(**cfg).double()
    m.load_state_dict(state)
    query = query.clone().requires_grad_(v_out is not None)
    if key is None:
        key = value = query
    kwargs = {}
    if key_padding_mask is not None:
        kwargs["key_padding_mask"] = key_padding_mask
    if attn_mask is not None:
        kwargs["attn_mask"] = attn_mask
    calls = []
    spied = [(nn.MultiheadAttention, "forward"), (F, "multi_head_attention_forward")]
    originals = [getattr(o, a) for o, a in spied]
    for (owner, attr), orig in zip(spied, originals):
        setattr(owner, attr, (lambda o, nm: lambda *a, **k: (calls.append(nm), o(*a, **k))[1])(orig, attr))
    try:
        with _OpLog() as log:
            out = m(query, key, value, **kwargs)
    finally:
        for (owner, attr), orig in zip(spied, originals):
            setattr(owner, attr, orig)
    res = {"out": _tensor(out), "calls": sorted(set(calls)), "ops": sorted(log.names),
           "masks_after": {k: t.detach().clone() for k, t in kwargs.items()}}
    if v_out is not None and isinstance(out, torch.Tensor):
        params = _params(m)
        names = list(params)
        grads = torch.autograd.grad(out, [query] + [params[n] for n in names], v_out, allow_unused=True)
        res["grad_query"] = grads[0]
        res["param_grads"] = {n: g for n, g in zip(names, grads[1:])}
    res["again"] = [_tensor(m(c["query"], c.get("key", c["query"]), c.get("value", c["query"]),
                              **{k: t for k, t in c.items() if k.endswith("mask")})) for c in again]
    return res


def mha_positional(ns, args, state, query, key, value):
    """MultiHeadAttention(*args) (its arguments by position): its state dict keys and, loaded with state, its output
    on (query, key, value)."""
    m, res = _build(get(ns, "MultiHeadAttention"), args, state)
    if m is not None:
        res.update(_attempt(lambda: m(query, key, value)))
    return res


# ------------------------------------------------------------------ exercise 3: PreNormBlock
def block_layout(ns, cfg):
    m = get(ns, "PreNormBlock")(**cfg)
    return {k: list(t.shape) for k, t in m.state_dict().items()}


def block_run(ns, cfg, state, src, src_mask=None, src_key_padding_mask=None, v_out=None, again=()):
    """Output of a PreNormBlock loaded with state (gradients with v_out); again: more calls on the same block
    afterwards, each a dict of forward's arguments, outputs under "again"."""
    m = get(ns, "PreNormBlock")(**cfg).double()
    m.load_state_dict(state)
    src = src.clone().requires_grad_(v_out is not None)
    kwargs = {}
    if src_mask is not None:
        kwargs["src_mask"] = src_mask
    if src_key_padding_mask is not None:
        kwargs["src_key_padding_mask"] = src_key_padding_mask
    calls = []
    spied = [(nn.TransformerEncoderLayer, "forward"), (nn.TransformerEncoder, "forward"),
             (nn.TransformerEncoderLayer, "_sa_block"), (nn.TransformerEncoderLayer, "_ff_block")]
    originals = [getattr(o, a) for o, a in spied]
    for (owner, attr), orig in zip(spied, originals):
        setattr(owner, attr, (lambda o, nm: lambda *a, **k: (calls.append(nm), o(*a, **k))[1])(orig, attr))
    try:
        out = m(src, **kwargs)
    finally:
        for (owner, attr), orig in zip(spied, originals):
            setattr(owner, attr, orig)
    builtin = [type(s).__name__ for s in m.modules() if isinstance(s, (nn.TransformerEncoderLayer, nn.TransformerEncoder))]
    res = {"out": _tensor(out), "calls": sorted(set(calls)) + builtin}
    if v_out is not None and isinstance(out, torch.Tensor):
        params = _params(m)
        names = list(params)
        grads = torch.autograd.grad(out, [src] + [params[n] for n in names], v_out, allow_unused=True)
        res["grad_src"] = grads[0]
        res["param_grads"] = {n: g for n, g in zip(names, grads[1:])}
    res["again"] = [_tensor(m(**c)) for c in again]
    return res


def block_positional(ns, args, state, src):
    """PreNormBlock(*args) (its arguments by position): its state dict keys and, loaded with state, its output on src."""
    m, res = _build(get(ns, "PreNormBlock"), args, state)
    if m is not None:
        res.update(_attempt(lambda: m(src)))
    return res


# ------------------------------------------------------------------ exercise 4: positions and patches
def positions(ns, length, d_model, base=None, dtype=None):
    kwargs = {}
    if base is not None:
        kwargs["base"] = base
    if dtype is not None:
        kwargs["dtype"] = dtype
    return _tensor(get(ns, "sinusoidal_positions")(length, d_model, **kwargs))


def positions_positional(ns, args):
    """sinusoidal_positions(*args): every argument by position."""
    return _attempt(lambda: get(ns, "sinusoidal_positions")(*args))


def positions_odd(ns, d_model, length=4):
    return capture_error(get(ns, "sinusoidal_positions"), length, d_model)


def patches(ns, images, weight, bias, v_out):
    """patch_embed's output, the gradients of <v_out, output>, and the aten ops it ran."""
    fn = get(ns, "patch_embed")
    with _OpLog() as log:
        if bias is None:
            res = vjp(lambda x, w: fn(x, w, None), [images, weight], v_out)
        else:
            res = vjp(lambda x, w, b: fn(x, w, b), [images, weight, bias], v_out)
    res["ops"] = sorted(log.names)
    return res


def patches_keep_layout(ns, images, weight, bias):
    """patch_embed on the images exactly as sent (their layout kept: no clone)."""
    return _tensor(get(ns, "patch_embed")(images, weight, bias))


# ------------------------------------------------------------------ exercise 5: KV cache
def cache_alone(ns, chunks):
    """A fresh KVCache fed (k, v) chunks: its length and contents before and after each update."""
    cache = get(ns, "KVCache")()
    res = {"empty_len": len(cache), "empty_k": repr(getattr(cache, "k", "<missing>")),
           "empty_v": repr(getattr(cache, "v", "<missing>")), "steps": []}
    for k, v in chunks:
        got = cache.update(k, v)
        got = list(got) if isinstance(got, (tuple, list)) else [got]
        res["steps"].append({"returned": [_tensor(t) for t in got], "len": len(cache),
                             "k": _tensor(cache.k), "v": _tensor(cache.v)})
    return res


def _attention(ns, embed_dim, num_heads, state):
    m = get(ns, "CausalSelfAttention")(embed_dim, num_heads).double()
    m.load_state_dict(state)
    return m


def kv_decode(ns, embed_dim, num_heads, state, x, splits):
    """forward(x) on the whole sequence, then the same sequence in steps of the given sizes through a cache; the
    cache's length, keys and values after every step."""
    m = _attention(ns, embed_dim, num_heads, state)
    with torch.no_grad():
        full = m(x)
        cache = get(ns, "KVCache")()
        steps, lens, ks, vs, start = [], [], [], [], 0
        for size in splits:
            steps.append(_tensor(m(x[:, start:start + size], cache)))
            start += size
            lens.append(len(cache))
            ks.append(_tensor(cache.k))
            vs.append(_tensor(cache.v))
    return {"full": _tensor(full), "steps": steps, "lens": lens, "k": ks[-1], "v": vs[-1], "ks": ks, "vs": vs}


def kv_interleaved(ns, embed_dim, num_heads, state, xs, splits):
    """Several sequences decoded in turn, each with its own cache. splits: one list of chunk sizes for every
    sequence, or one list per sequence, where round r gives sequence i its next splits[i][r] tokens (0: it sits
    that round out; its cache is made when it first takes tokens, while the others already hold some)."""
    m = _attention(ns, embed_dim, num_heads, state)
    cls = get(ns, "KVCache")
    per = splits if splits and isinstance(splits[0], list) else [splits] * len(xs)
    caches = [None] * len(xs)
    outs = [[] for _ in xs]
    starts = [0] * len(xs)
    with torch.no_grad():
        for r in range(max(len(s) for s in per)):
            for i, x in enumerate(xs):
                size = per[i][r] if r < len(per[i]) else 0
                if not size:
                    continue
                if caches[i] is None:
                    caches[i] = cls()
                outs[i].append(_tensor(m(x[:, starts[i]:starts[i] + size], caches[i])))
                starts[i] += size
    return outs


# ------------------------------------------------------------------ exercise 6: blocked attention
def blocked(ns, q, k, v, block_size, is_causal=False, scale=None, traced=False):
    """The output and the op log; with traced, also the peak of the memory Python's allocators handed out during
    the call (numpy arrays, lists: work done out of torch, which no op log sees; red team 20; measured on a second
    call, after one untraced, and inside the mode, not over the worker's reading of its record when it is left), and
    whether that measure ran to the end (a sentinel allocated before the call is still traced after it)."""
    fn = get(ns, "blocked_attention")
    kwargs = {"is_causal": is_causal}
    if scale is not None:
        kwargs["scale"] = scale
    extra = {}
    if not traced:
        with _OpLog() as log:
            out = fn(q, k, v, block_size, **kwargs)
    else:  # once before, untraced: what a first call allocates once (imports, PyTorch's caches) is not counted
        import tracemalloc
        with _OpLog():
            fn(q, k, v, block_size, **kwargs)
        ours = not tracemalloc.is_tracing()
        if ours:
            tracemalloc.start(1)
        try:
            sentinel = bytearray(4096)
            with _OpLog() as log:
                tracemalloc.reset_peak()
                base = tracemalloc.get_traced_memory()[0]
                out = fn(q, k, v, block_size, **kwargs)
                peak = tracemalloc.get_traced_memory()[1] - base
                whole = tracemalloc.is_tracing() and tracemalloc.get_object_traceback(sentinel) is not None
        finally:
            if ours:
                tracemalloc.stop()
        extra = {"py_peak": int(peak), "py_traced": bool(whole)}
    return {"out": _tensor(out), "largest": list(log.largest), "ops": sorted(log.names), "foreign": sorted(log.foreign),
            "flops": log.flops,
            "numels": sorted(log.numels), "order": log.order, **extra}


def blocked_vjp(ns, inputs, v, block_size, is_causal=False):
    fn = get(ns, "blocked_attention")
    return vjp(lambda q, k, values: fn(q, k, values, block_size, is_causal=is_causal), inputs, v)


# ------------------------------------------------------------------ every exercise: another device
# The grader's stand-in for a GPU (probelib.stand_in_device): first the inputs and the module on the meta device with
# the CPU as the default, so that a tensor made without device= lands elsewhere and mixing the two raises, as it would
# with CUDA tensors; where the code needs values (a boolean mask, .item(), a branch on a tensor), which meta tensors
# do not hold, the roles swap: inputs on the CPU, meta as the default device. Each probe returns devices relative to
# the inputs' ("meta" when on theirs) and shapes, or the error.
def _meta_result(build):
    """build(device) makes the inputs (and module) on device and returns a thunk that calls the submission."""
    def run(device):
        with torch.device("cpu"):  # values from the CPU (a fixed generator), then moved where the inputs live
            thunk = build(device)
        return thunk()
    try:  # the same call on the CPU first: whatever it leaves behind (a mask kept per shape) must not be reused
        run("cpu")
    except Exception:
        pass  # the checks on the CPU judge that call
    try:
        out, home = stand_in_device(run)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    outs = out if isinstance(out, list) else [out]
    if not all(isinstance(t, torch.Tensor) for t in outs):
        return {"error": "returned something other than a tensor"}
    return {"devices": [relative_device(t, home) for t in outs], "shapes": [list(t.shape) for t in outs]}


def _moved(base, make, device):
    """The module _meta_result's first call used on the CPU (base), moved in place to device as a module made on the
    CPU is moved to a GPU: what forward kept on it (a mask cached per shape) must not be reused on another device. In
    the roles-swapped retry (inputs on the CPU) a fresh module from make(), as base may be left on meta."""
    if device != "cpu":
        return base.to(device)
    return base if all(t.device.type == "cpu" for t in base.state_dict().values()) else make()


def _randn(shape, device, dtype=torch.float64, seed=0):
    return torch.randn(shape, dtype=dtype, generator=torch.Generator().manual_seed(seed)).to(device)


class _ForeignGenerator(TorchDispatchMode):
    """Raises, as CUDA does, when a random op drawing numbers on one device is handed a generator of another
    (torch.default_generator is the CPU's: on a GPU, torch.rand(..., generator=torch.default_generator) raises)."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        gens = [a for a in list(args) + list(kwargs.values()) if isinstance(a, torch.Generator)]
        first = out[0] if isinstance(out, (list, tuple)) and out else out
        if gens and isinstance(first, torch.Tensor) and gens[0].device.type != first.device.type:
            raise RuntimeError(f"{func} drew numbers on {first.device.type} from a generator on "
                               f"{gens[0].device.type} (a GPU's torch.rand raises: Expected a 'cuda' device type for "
                               f"generator but found '{gens[0].device.type}')")
        return out


def sdpa_on_meta(ns, q_shape, k_shape, v_shape, mask_shape=None, mask_kind=None, is_causal=False, dropout_p=0.0,
                 global_draw=False):
    """global_draw: dropout with generator=None, under a mode that refuses a generator of another device than the
    numbers it draws (what a GPU refuses)."""
    fn = get(ns, "scaled_dot_product_attention")

    def build(device):
        q, k, v = (_randn(s, device, seed=i) for i, s in enumerate((q_shape, k_shape, v_shape)))
        mask = None  # query 0 has no key left (round 29: zeros made for such a row only must be on the device too)
        if mask_kind == "bool":
            mask = torch.ones(mask_shape, dtype=torch.bool)
            mask[0] = False
            mask = mask.to(device)
        elif mask_kind == "float":
            mask = torch.zeros(mask_shape, dtype=torch.float64)
            mask[0] = float("-inf")
            mask = mask.to(device)
        g = torch.Generator().manual_seed(0) if dropout_p and not global_draw else None

        def call():
            with _ForeignGenerator() if global_draw else contextlib.nullcontext():
                return fn(q, k, v, attn_mask=mask, is_causal=is_causal, dropout_p=dropout_p, generator=g)
        return call
    return _meta_result(build)


def mha_on_meta(ns, cfg, n, length, s_len, masks, kinds=None, head_bool=False):
    """MultiHeadAttention(**cfg) moved to the inputs' device, cross attention with the masks named in masks; kinds
    (optional): {"key_padding_mask": "float", "attn_mask": "bool"} for the other kinds, an (L, S) boolean attn_mask.
    head_bool: a second call on the same module with a boolean (N*H, L, S) attn_mask alone (its output second)."""
    kinds = kinds or {}
    make = lambda: get(ns, "MultiHeadAttention")(**cfg)  # noqa: E731
    base = make()

    def build(device):
        m = _moved(base, make, device)
        e, h, bf = cfg["embed_dim"], cfg["num_heads"], cfg.get("batch_first", False)
        shape = (lambda t: (n, t, e) if bf else (t, n, e))
        query = _randn(shape(length), device, dtype=torch.float32, seed=1)
        key = _randn(shape(s_len), device, dtype=torch.float32, seed=2)
        kwargs = {}
        if "key_padding_mask" in masks:
            kind = torch.float32 if kinds.get("key_padding_mask") == "float" else torch.bool
            kwargs["key_padding_mask"] = torch.zeros(n, s_len, dtype=kind).to(device)
        if "attn_mask" in masks:
            kwargs["attn_mask"] = (torch.zeros(length, s_len, dtype=torch.bool) if kinds.get("attn_mask") == "bool"
                                   else torch.zeros(n * h, length, s_len)).to(device)
        if not head_bool:
            return lambda: m(query, key, key, **kwargs)
        per_head = torch.zeros(n * h, length, s_len, dtype=torch.bool).to(device)
        return lambda: [m(query, key, key, **kwargs), m(query, key, key, attn_mask=per_head)]
    return _meta_result(build)


def kv_on_meta(ns, embed_dim, num_heads, batch, splits):
    """One module, used on the CPU first and then moved to the inputs' device (see _moved)."""
    make = lambda: get(ns, "CausalSelfAttention")(embed_dim, num_heads)  # noqa: E731
    base = make()

    def build(device):
        m = _moved(base, make, device)
        cache = get(ns, "KVCache")()
        full = _randn((batch, sum(splits), embed_dim), device, dtype=torch.float32, seed=3)
        parts = [_randn((batch, size, embed_dim), device, dtype=torch.float32, seed=4 + i) for i, size in enumerate(splits)]

        def call():
            outs = [m(full)] + [m(x, cache) for x in parts]
            m(full)  # the first call again: what the CPU's last call kept meets the other device's first call
            return outs
        return call
    return _meta_result(build)


def patches_on_meta(ns, images_shape, weight_shape, with_bias):
    fn = get(ns, "patch_embed")

    def build(device):
        x, w = _randn(images_shape, device, seed=0), _randn(weight_shape, device, seed=1)
        b = _randn(weight_shape[:1], device, seed=2) if with_bias else None
        return lambda: fn(x, w, b)
    return _meta_result(build)


def blocked_on_meta(ns, q_shape, k_shape, v_shape, block_size, is_causal):
    fn = get(ns, "blocked_attention")

    def build(device):
        q, k, v = (_randn(s, device, seed=i) for i, s in enumerate((q_shape, k_shape, v_shape)))
        return lambda: fn(q, k, v, block_size, is_causal=is_causal)
    return _meta_result(build)
