"""Probes for 00-02: run next to the submission, return plain data only."""
import copy
import functools
import gc
import threading
import types
import weakref

import torch
import torch.autograd
import torch.nn as nn
from torch.overrides import TorchFunctionMode

from course.judge.probelib import (aliases, build_model, capture_error, changes, get, global_state, module_state,
                                   off_default_device, relative_device, stand_in_device)
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)

# counted by the kernel outside the worker where the grader is root (course/sandbox/native_calls.py):
# torch's autograd in the engine task
NATIVE_CALLS = ("autograd_engine", "forward_ad")


# ---------------------------------------------------------------- graphs from plain recipes
def build_graph(recipe, seed):
    """The output tensor of a small graph described by ``recipe``, and the leaves that require grad.

    Recipes: "mlp", "diamond", "reused", "several_outputs", "detached", "constant_leaf", "siblings", "long_short",
    "threads", "leaf",
    "no_graph", "random:<n>" (n random operations over three leaves), "ladder:<k>" (k residual blocks in a chain),
    "chain:<n>" (n tanh nodes one after the other: a graph deeper than Python's recursion limit). The named graphs end in one to four
    more operations chosen by ``seed`` (so each student's graph has a shape of its own)."""
    out, leaves, gen = _recipe(recipe, seed)
    if recipe in ("mlp", "diamond", "reused", "several_outputs", "detached", "constant_leaf", "siblings", "long_short",
                  "threads"):
        for _ in range(int(torch.randint(1, 5, (1,), generator=gen))):
            op = int(torch.randint(0, 3, (1,), generator=gen))
            out = out * 0.5 if op == 0 else out.tanh() if op == 1 else out + leaves[0].sum()
    return out, leaves


def _recipe(recipe, seed):
    gen = torch.Generator().manual_seed(seed)
    r = lambda *s: torch.randn(*s, generator=gen, dtype=torch.float64)  # noqa: E731
    a, b = r(3, 4).requires_grad_(True), r(4).requires_grad_(True)
    if recipe == "mlp":
        w1, w2 = r(4, 5).requires_grad_(True), r(5, 2).requires_grad_(True)
        out = ((a @ w1).relu() @ w2).log_softmax(-1).sum()
        return out, [a, w1, w2], gen
    if recipe == "diamond":
        y = a * b
        return (y.exp() + y.sin() * y.cos()).sum(), [a, b], gen
    if recipe == "siblings":  # y and a node made from y feed one node, once in each order of next_functions
        y = a * b
        return ((y.exp() + y) + (y + y.sin())).sum(), [a, b], gen
    if recipe == "long_short":  # y reaches the sum by a one-step path and by a five-step chain, in both orders
        y = a * b
        chain = y.exp().tanh().sin().cos().exp()
        return ((y + chain) + (chain + y)).sum(), [a, b], gen
    if recipe == "reused":
        return (a * a + a - a.exp() * a).sum(), [a], gen
    if recipe == "threads":  # a graph continued in another thread: autograd numbers nodes per thread, from 0
        part = {}

        def first():  # sixteen nodes dropped first, so this thread's nodes carry numbers from 16 up
            for _ in range(16):
                _ = a * 1.0
            part["y"] = a * b
            part["c"] = part["y"].tanh()

        def second():  # a fresh thread: its nodes are numbered from 0, below those of the nodes they feed
            part["out"] = (part["c"].exp() + part["c"] * part["y"]).sum()
        for step in (first, second):
            th = threading.Thread(target=step)
            th.start()
            th.join()
        return part["out"], [a, b], gen
    if recipe == "several_outputs":
        p, q, s = a.unbind(0)
        return (p * q + s.tanh() * p).sum(), [a], gen
    if recipe == "detached":
        y = a * b
        return (y * y.detach() + y.detach().exp()).sum(), [a, b], gen
    if recipe == "constant_leaf":
        c = r(3, 4)  # requires no grad: None in next_functions
        return (a * c + c.exp() * b).sum(), [a, b], gen
    if recipe.startswith("ladder:"):  # y = y + y.tanh() k times: 2**k paths from the output down to a and b
        y = a * b
        for _ in range(int(recipe.split(":")[1])):
            y = y + y.tanh()
        return y.sum(), [a, b], gen
    if recipe.startswith("chain:"):  # y = y.tanh() n times: n nodes deep, more than Python's recursion limit
        y = a * b
        for _ in range(int(recipe.split(":")[1])):
            y = y.tanh()
        return y.sum(), [a, b], gen
    if recipe == "leaf":
        return a, [a], gen
    if recipe == "no_graph":
        with torch.no_grad():
            return a * b, [a, b], gen
    if recipe.startswith("random:"):
        n = int(recipe.split(":")[1])
        c = r(3, 4)
        slots = [a, b, c]
        for _ in range(n):
            op = int(torch.randint(0, 6, (1,), generator=gen))
            i, j = (int(v) for v in torch.randint(0, len(slots), (2,), generator=gen))
            x, y = slots[i], slots[j]
            slots.append([lambda: x + y, lambda: x * y, lambda: x.tanh(), lambda: x - y,
                          lambda: x.sin() * y, lambda: x.detach() * y][op]())
        out = sum((s.sum() for s in slots[3:] if s.requires_grad), (a * b).sum())
        return out, [a, b], gen
    raise ValueError(f"unknown recipe {recipe}")


def _walk(t):
    """The probe's own walk: the nodes, and the edges (i, j) for node j in node i's next_functions."""
    if t.grad_fn is None:
        return [], []
    index, nodes, stack = {t.grad_fn: 0}, [t.grad_fn], [t.grad_fn]
    while stack:
        n = stack.pop()
        for m, _ in n.next_functions:
            if m is not None and m not in index:
                index[m] = len(nodes)
                nodes.append(m)
                stack.append(m)
    edges = sorted({(index[n], index[m]) for n in nodes for m, _ in n.next_functions if m is not None})
    return nodes, edges


def _describe(result, index):
    """A returned list as plain data: the index of each node in the probe's walk, or a description."""
    if not isinstance(result, (list, tuple)):
        return f"not a list but {type(result).__name__}"
    out = []
    for item in result:
        try:
            out.append(index.get(item, f"an object not in the graph ({type(item).__name__})"))
        except TypeError:
            out.append(f"an unhashable {type(item).__name__}")
    return out


def rebase_in_place(out):
    """An in-place operation on the graph's output: ``out`` keeps its identity but gets a new grad_fn
    (MulBackward0) whose input is the old one."""
    out.mul_(0.5)
    return out


def graph_walk(ns, fn_name, recipe, seed, twice=False, rebase=False, appended=False):
    """What ``fn_name(t)`` returns for the graph of ``recipe``, as indices into the probe's own walk,
    with the walk's node names and edges, and whether backward still works afterwards; with ``twice``,
    also what a second call on the same tensor returns ("again"); with ``rebase``, the function is called
    once on t first, then t is changed in place (rebase_in_place) and the reply is for t's new graph; with
    ``appended``, the caller appends a string to the list the first call returned before the second call
    ("again", as for ``twice``)."""
    out, leaves = build_graph(recipe, seed)
    if rebase:
        get(ns, fn_name)(out)
        rebase_in_place(out)
    nodes, edges = _walk(out)
    index = {n: i for i, n in enumerate(nodes)}
    ran = [0]  # how often the output's node ran while the student's function did (a backward pass)
    hook = out.grad_fn.register_prehook(lambda g: ran.__setitem__(0, ran[0] + 1)) if out.grad_fn is not None else None
    try:
        result = get(ns, fn_name)(out)
        got = _describe(result, index)
        if appended and isinstance(result, list):
            result.append("a string the caller appended")
        again = _describe(get(ns, fn_name)(out), index) if twice or appended else None
    finally:
        if hook is not None:
            hook.remove()
    nodes_after, edges_after = _walk(out)
    backward = None
    if out.requires_grad and out.dim() == 0:
        backward = capture_error(out.backward)
    return {"got": got, "again": again, "names": [type(n).__name__ for n in nodes], "edges": [list(e) for e in edges],
            "backward_ran": ran[0],
            "unchanged": len(nodes_after) == len(nodes) and edges_after == edges,
            "backward": backward, "grads": [None if x.grad is None else x.grad.clone() for x in leaves]}


# ---------------------------------------------------------------- the engine
def _run_program(make_leaf, leaves, program, out_index):
    slots = [make_leaf(t) for t in leaves]
    for op, i, j in program:
        x, y = slots[i], (slots[j] if j is not None else None)
        if op == "add":
            slots.append(x + y)
        elif op == "sub":
            slots.append(x - y)
        elif op == "mul":
            slots.append(x * y)
        elif op == "matmul":
            slots.append(x @ y)
        elif op == "neg":
            slots.append(-x)
        elif op in ("exp", "log", "tanh", "relu", "sum"):
            slots.append(getattr(x, op)())
        else:
            raise ValueError(f"unknown op {op}")
    return slots, slots[out_index if out_index is not None else -1]


def _data(v):
    d = getattr(v, "data", None)
    return d.detach().clone() if isinstance(d, torch.Tensor) else f"not a tensor but {type(d).__name__}"


def _grad(v):
    g = getattr(v, "grad", "missing")
    if g is None or isinstance(g, str):
        return g
    return g.detach().clone() if isinstance(g, torch.Tensor) else f"not a tensor but {type(g).__name__}"


class _AutogradSeen(TorchFunctionMode):
    """Records every torch call that returns a tensor that requires grad (a graph being recorded)."""

    def __init__(self, seen):
        super().__init__()
        self.seen = seen

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, (tuple, list)) else (out,):
            if isinstance(t, torch.Tensor) and t.requires_grad and len(self.seen) < 5:
                self.seen.append(getattr(func, "__name__", str(func)))
                break
        return out


def engine_run(ns, leaves, program, times=1, no_grad=True, out_index=None, reset=None, same_tensor=None):
    """Build the program's expression with the student's Value, call backward ``times`` times on its
    (0-dim) output, and return every slot's data and the leaves' grads after each call; "autograd" names
    what used torch's autograd meanwhile (a call returning a tensor that requires grad, or a backward pass).
    ``reset``: what the caller does to each leaf's .grad between the calls: "none" (``.grad = None``, as
    zero_grad does), a tensor (``.grad =`` a copy of it), or None (leave it). ``same_tensor``: pairs (j, i):
    leaf j is built as Value(t) from the very tensor t of leaf i (two Values, two leaves, one tensor)."""
    Value = get(ns, "Value")
    leaves = [t.clone() for t in leaves]
    for j, i in same_tensor or ():
        leaves[j] = leaves[i]
    ctx = torch.no_grad() if no_grad else torch.enable_grad()
    seen = []
    engine = torch.autograd._engine_run_backward

    def watched(*a, **k):
        seen.append("torch.autograd's engine (backward or torch.autograd.grad)")
        return engine(*a, **k)
    torch.autograd._engine_run_backward = watched
    try:
        with ctx, _AutogradSeen(seen):
            slots, out = _run_program(Value, leaves, program, out_index)
            data = [_data(s) for s in slots]
            before = [_grad(s) for s in slots[:len(leaves)]]  # every leaf's .grad once built, before any backward
            grads = []
            for call in range(times):
                if call and reset is not None:
                    for v, r in zip(slots, reset):
                        if r is not None:
                            v.grad = None if isinstance(r, str) else r.clone()
                out.backward()
                grads.append([_grad(s) for s in slots[:len(leaves)]])
    finally:
        torch.autograd._engine_run_backward = engine
    shared = []
    mine = slots[:len(leaves)]
    for i, v in enumerate(mine):
        g = getattr(v, "grad", None)
        if not isinstance(g, torch.Tensor):
            continue
        for j, w in enumerate(mine):
            for attr in ("grad", "data"):
                other = getattr(w, attr, None)
                if (i, attr) != (j, "grad") and isinstance(other, torch.Tensor) and aliases(g, other):
                    shared.append([i, j, attr])
    return {"data": data, "grads": grads, "shared": shared, "autograd": sorted(set(seen)), "before": before}


def engine_stores_data(ns, leaves):
    """Value(t) for each tensor t: whether .data is t itself (or a view of t's memory with t's shape, strides and
    dtype, as t.detach() gives), and whether an in-place change of t afterwards shows in .data."""
    Value = get(ns, "Value")
    out = []
    for t in leaves:
        t = t.clone()
        v = Value(t)
        d = getattr(v, "data", None)
        if not isinstance(d, torch.Tensor):
            out.append({"data": f"not a tensor but {type(d).__name__}"})
            continue
        same = d is t or (aliases(d, t) and d.data_ptr() == t.data_ptr() and d.shape == t.shape
                          and d.stride() == t.stride() and d.dtype == t.dtype)
        with torch.no_grad():
            t.add_(1.0)
        out.append({"data": "ok", "is": d is t, "same": same,
                    "sees_update": isinstance(v.data, torch.Tensor) and v.data.shape == t.shape
                    and bool(torch.equal(v.data, t))})
    return out


def _where(t, home):
    """A returned tensor as plain data: its device (relative to the inputs', see relative_device), dtype and shape."""
    if not isinstance(t, torch.Tensor):
        return "None" if t is None else f"not a tensor but {type(t).__name__}"
    return {"device": relative_device(t, home), "dtype": str(t.dtype), "shape": list(t.shape)}


def engine_off_device(ns, leaves, program):
    """The program's expression built with the student's Value on leaves off the default device
    (probelib.off_default_device: on meta, or on the CPU with meta as the default device where the code reads
    values), then one backward(): the device, dtype and shape of every slot's .data and of each leaf's .grad."""
    Value = get(ns, "Value")

    def run(*ts):
        with torch.no_grad():
            slots, out = _run_program(Value, list(ts), program, None)
            out.backward()
        return [getattr(s, "data", None) for s in slots], [getattr(s, "grad", None) for s in slots[:len(ts)]]
    try:
        (data, grads), home = off_default_device(run, leaves)
    except Exception as exc:  # noqa: BLE001
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    return {"error": None, "data": [_where(d, home) for d in data], "grads": [_where(g, home) for g in grads]}


# ---------------------------------------------------------------- saved tensors in bfloat16
def _fields(obj):
    """The values an object holds: its __dict__ and its __slots__ (a packed form may be any small object)."""
    if isinstance(obj, type):
        return []
    out = list(vars(obj).values()) if hasattr(obj, "__dict__") else []
    if isinstance(obj, types.FunctionType):  # a closure holds what its cells hold
        for cell in obj.__closure__ or ():
            try:
                out.append(cell.cell_contents)
            except ValueError:  # an empty cell
                pass
        out += list(obj.__defaults__ or ()) + list((obj.__kwdefaults__ or {}).values())
    elif isinstance(obj, types.MethodType):
        out += [obj.__self__, obj.__func__]
    elif isinstance(obj, functools.partial):
        out += [obj.func, *obj.args, *obj.keywords.values()]
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name):
                out.append(getattr(obj, name))
    return out


def _tensor_bytes(obj, seen=None):
    """Bytes of the distinct tensors reachable in a packed object (tuples, lists, dicts, attributes)."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return 0, []
    seen.add(id(obj))
    if isinstance(obj, torch.Tensor):
        return obj.numel() * obj.element_size(), [str(obj.dtype)]
    items = []
    if isinstance(obj, (tuple, list, set, frozenset)):
        items = list(obj)
    elif isinstance(obj, dict):
        items = list(obj.values())
    else:
        items = _fields(obj)
    total, dtypes = 0, []
    for it in items:
        b, d = _tensor_bytes(it, seen)
        total, dtypes = total + b, dtypes + d
    return total, dtypes


def pack_roundtrip(ns, t):
    """pack_compressed(t) and unpack_compressed of it: the bytes and dtypes held, what came back, and t after."""
    orig = t.clone()
    packed = get(ns, "pack_compressed")(t)
    nbytes, dtypes = _tensor_bytes(packed)
    holds_t = _holds(packed, t)
    back = get(ns, "unpack_compressed")(packed)
    return {"bytes": nbytes, "dtypes": dtypes, "holds_input": holds_t,
            "back": back.detach().clone() if isinstance(back, torch.Tensor) else f"not a tensor: {type(back).__name__}",
            "input_unchanged": t.dtype == orig.dtype and t.shape == orig.shape
            and bool(((t == orig) | ((t != t) & (orig != orig))).all())}  # NaN where NaN was


def pack_roundtrip_meta(ns, shape, dtype_name):
    """pack_compressed / unpack_compressed of a tensor off the default device (probelib.off_default_device: on
    the meta device, a stand-in for a GPU, or on the CPU with meta as the default where the code reads values):
    the device (relative to the input's), dtype and shape that came back, or the error."""
    t = (torch.randn(shape) * 4).to(getattr(torch, dtype_name))

    def roundtrip(x):
        return get(ns, "unpack_compressed")(get(ns, "pack_compressed")(x))
    try:
        back, home = off_default_device(roundtrip, (t,))
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    if not isinstance(back, torch.Tensor):
        return {"error": f"unpack_compressed returned {type(back).__name__}, not a tensor"}
    return {"device": relative_device(back, home), "dtype": str(back.dtype), "shape": list(back.shape)}


def _holds(obj, t, seen=None):
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return False
    seen.add(id(obj))
    if isinstance(obj, torch.Tensor):  # a view of t, even an empty one, keeps all of t's memory alive
        own = t.untyped_storage()
        return own.nbytes() > 0 and obj.untyped_storage().data_ptr() == own.data_ptr()
    if isinstance(obj, (tuple, list)):
        return any(_holds(o, t, seen) for o in obj)
    if isinstance(obj, dict):
        return any(_holds(o, t, seen) for o in obj.values())
    return any(_holds(o, t, seen) for o in _fields(obj))


def make_net(kind, seed, dtype):
    torch.manual_seed(seed)
    if kind == "mlp":
        net = nn.Sequential(nn.Flatten(), nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10))
    elif kind == "pool":  # max-pooling saves int64 indices
        net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.Tanh(), nn.MaxPool2d(2), nn.Flatten(),
                            nn.Linear(4 * 14 * 14, 10))
    else:
        raise ValueError(kind)
    return net.to(dtype)


def _grads(net, x, hooks):
    ctx = hooks() if hooks is not None else torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t)
    with ctx:
        loss = net(x).square().mean()
    return [g.detach().clone() for g in torch.autograd.grad(loss, list(net.parameters()))]


def hooked_grads(ns, kind, seed, dtype_name, x):
    """Parameter gradients of net(x).square().mean() with the student's hooks installed by the judge's own
    saved_tensors_hooks (counting the bytes each pack keeps, again after backward has unpacked them, and the dtype
    each unpack returns)."""
    dtype = getattr(torch, dtype_name)
    net = make_net(kind, seed, dtype)
    pack, unpack = get(ns, "pack_compressed"), get(ns, "unpack_compressed")
    log = {"raw_bytes": 0, "packed_bytes": 0, "unpacked": [], "n": 0, "floats": [], "others": []}
    packed = []  # what each pack returned, to weigh again once backward has unpacked it

    def counting_pack(t):
        log["raw_bytes"] += t.numel() * t.element_size()
        log["n"] += 1
        p = pack(t)
        nbytes = _tensor_bytes(p)[0]
        log["packed_bytes"] += nbytes
        if t.dtype in (torch.float32, torch.float64):  # each one alone: [dtype, shape, a parameter?, bytes, holds t]
            log["floats"].append([str(t.dtype), list(t.shape), bool(t.is_leaf and t.requires_grad), nbytes,
                                  _holds(p, t)])
        else:  # kept as it is: [dtype, shape, bytes of t, bytes held]
            log["others"].append([str(t.dtype), list(t.shape), t.numel() * t.element_size(), nbytes])
        packed.append(p)
        return (p, str(t.dtype), tuple(t.shape))

    def checking_unpack(p):
        inner, dt, shape = p
        back = unpack(inner)
        if isinstance(back, torch.Tensor):
            log["unpacked"].append([dt, str(back.dtype), list(shape), list(back.shape)])
        return back

    x = x.to(dtype)
    with torch.autograd.graph.saved_tensors_hooks(counting_pack, checking_unpack):
        loss = net(x).square().mean()
    grads = [g.detach().clone() for g in torch.autograd.grad(loss, list(net.parameters()))]
    return {"grads": grads, "packed_bytes_after": sum(_tensor_bytes(p)[0] for p in packed), **log}


def context_grads(ns, kind, seed, dtype_name, x):
    """Parameter gradients through compressed_saved_tensors(), twice over the same retained graph (each pass
    unpacks every saved tensor), and the hooks installed inside and after."""
    dtype = getattr(torch, dtype_name)
    net = make_net(kind, seed, dtype)
    top = torch._C._autograd._top_saved_tensors_default_hooks
    before = top(False)
    inside = {}
    with get(ns, "compressed_saved_tensors")():
        loss = net(x.to(dtype)).square().mean()
        hooks = top(False)
        if hooks is not None:
            p = hooks[0](torch.ones(64, 64, dtype=torch.float32))
            inside = {"bytes": _tensor_bytes(p)[0]}
            back = hooks[1](p)
            inside["dtype"] = str(back.dtype) if isinstance(back, torch.Tensor) else type(back).__name__
    after = top(False)
    params = list(net.parameters())
    grads = [g.detach().clone() for g in torch.autograd.grad(loss, params, retain_graph=True)]
    try:  # a second pass over the retained graph unpacks every saved tensor again
        again = [g.detach().clone() for g in torch.autograd.grad(loss, params)]
    except Exception as exc:
        again = f"{type(exc).__name__}: {str(exc)[:200]}"
    return {"grads": grads, "again": again, "inside": inside, "left_after": after is not None and after != before}


def context_raises(ns, interrupt=False):
    """An exception inside the block: the hooks must be gone afterwards. With ``interrupt``, the exception is a
    KeyboardInterrupt (a BaseException, not an Exception, as when the user stops a long forward)."""
    top = torch._C._autograd._top_saved_tensors_default_hooks
    state = {}

    def go():
        with get(ns, "compressed_saved_tensors")():
            state["inside"] = top(False) is not None
            if interrupt:
                raise KeyboardInterrupt("raised inside the block by the judge")
            raise KeyError("raised inside the block by the judge")
    if interrupt:
        try:
            go()
            err = {"raised": False, "type": "", "message": "", "mro": []}
        except BaseException as exc:  # noqa: BLE001  the KeyboardInterrupt must come out; caught here, reported
            err = {"raised": True, "type": type(exc).__name__, "message": str(exc)[:500],
                   "mro": [c.__name__ for c in type(exc).__mro__]}
    else:
        err = capture_error(go)
    left = top(False)
    while torch._C._autograd._top_saved_tensors_default_hooks(False) is not None:
        torch._C._autograd._pop_saved_tensors_default_hooks()
    return {"error": err, "left_after": left is not None, "inside": state.get("inside")}


# ---------------------------------------------------------------- evaluate
def run_evaluate(ns, spec, x, keep, train_modes, fail=False, grad_enabled=True, variant=None):
    """evaluate(model, x, keep_for_autograd=keep) on the model of ``spec`` with the given per-submodule
    training flags, called with grad mode ``grad_enabled``; what it returned, what happens when it is used
    later, and what it left behind."""
    model = vary_model(build_model(spec), variant)
    for (name, m), mode in zip(model.named_modules(), train_modes):
        m.training = mode
    if fail:  # a model whose forward raises
        x = torch.randn(2, spec["in"] + 1, dtype=x.dtype)
    grad_mode_inside = []
    with torch.set_grad_enabled(grad_enabled):  # the caller's grad mode; the snapshots are taken inside it
        before, mbefore = global_state(), module_state(model)
        hook = model.head.register_forward_hook(
            lambda m, a, o: grad_mode_inside.append([torch.is_grad_enabled(), torch.is_inference_mode_enabled()]))
        err = None
        try:
            out = get(ns, "evaluate")(model, x, keep_for_autograd=keep)
        except Exception as exc:  # noqa: BLE001
            err, out = f"{type(exc).__name__}: {str(exc)[:200]}", None
        hook.remove()
        res = {"error": err, "global_changes": changes(before, global_state()),
               "module_changes": changes(mbefore, module_state(model)), "inside": grad_mode_inside,
               "modes_after": [m.training for m in model.modules()]}
    if not isinstance(out, torch.Tensor):
        res["out"] = None if out is None else f"not a tensor: {type(out).__name__}"
        return res
    res.update(out=out.clone(), is_inference=out.is_inference(),
               requires_grad=out.requires_grad, has_grad_fn=out.grad_fn is not None)
    w = torch.randn(out.shape[-1], dtype=out.dtype, requires_grad=True)
    res["later_autograd"] = capture_error(lambda: torch.autograd.grad((out * w).sum(), w))
    res["later_inplace"] = capture_error(lambda: out.mul_(2))
    return res


def vary_model(model, variant=None):
    """A spec's model changed in ways the plain SpecNet does not cover (the same change on the judge and here).
    "alpha": every nn.Dropout becomes an nn.AlphaDropout (a random layer that is not an nn.Dropout);
    "frozen_alpha": that, and the first Linear layer's parameters frozen (requires_grad False), so a frozen
    parameter comes before trainable ones in model.parameters(); "hooked": a forward pre-hook (input * 2) and a
    forward hook (output + 0.5) registered on the model itself."""
    if variant in ("alpha", "frozen_alpha"):
        for parent in list(model.modules()):
            for name, child in list(parent.named_children()):
                if isinstance(child, nn.Dropout):
                    setattr(parent, name, nn.AlphaDropout(child.p))
    if variant == "frozen_alpha":
        next(m for m in model.modules() if isinstance(m, nn.Linear)).requires_grad_(False)
    if variant == "hooked":  # hooks on the model itself: model(x) runs them, model.forward(x) does not
        model.register_forward_pre_hook(_double_input)
        model.register_forward_hook(_shift_output)
    return model


class EvalScale(nn.Module):
    """A layer whose train() does more than set .training (as layers that merge weights or switch caches for
    inference do): train(False) makes it scale its input by 2, train(True) by 1. Only model.eval() (or
    .train(False)) switches it; setting .training by hand does not."""

    def __init__(self):
        super().__init__()
        self.scale = 1.0

    def train(self, mode=True):
        super().train(mode)
        self.scale = 1.0 if mode else 2.0
        return self

    def forward(self, x):
        return x * self.scale


def train_override_model(seed):
    """Linear, EvalScale, Dropout, Linear: the model of evaluate_train_override (built the same on the judge)."""
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(4, 5), EvalScale(), nn.Dropout(0.5), nn.Linear(5, 3))


def _evaluate_report(ns, model, x, keep, positional=False):
    """evaluate(model, x, keep_for_autograd=keep) (with ``positional``: evaluate(model, x, keep)): what it returned
    (or raised), whether that is an inference tensor, and the train flags of model.modules() afterwards."""
    try:
        out = get(ns, "evaluate")(model, x, keep) if positional else get(ns, "evaluate")(model, x, keep_for_autograd=keep)
    except Exception as exc:  # noqa: BLE001
        return {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
    return {"error": None, "out": out.clone() if isinstance(out, torch.Tensor) else f"not a tensor: {type(out).__name__}",
            "is_inference": out.is_inference() if isinstance(out, torch.Tensor) else None,
            "modes_after": [m.training for m in model.modules()]}


def evaluate_positional(ns, seed, x, keep):
    """evaluate(model, x, keep), keep_for_autograd given by position, on train_override_model(seed) in training
    mode: what it returned (or raised), and the train flags afterwards."""
    model = train_override_model(seed)
    model.train()
    return _evaluate_report(ns, model, x, keep, positional=True)


def shared_model(seed):
    """A model with a submodule shared by two parents: Sequential(Sequential(S, Tanh), Sequential(S, ReLU),
    Linear(4, 3)) with S = Sequential(Linear(4, 4), Dropout(0.5)) (built the same on the judge)."""
    torch.manual_seed(seed)
    shared = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
    return nn.Sequential(nn.Sequential(shared, nn.Tanh()), nn.Sequential(shared, nn.ReLU()), nn.Linear(4, 3))


SHARED_MODES = [True, True, True, True, True, True, False, False, True]  # the second parent (and ReLU) in eval mode


def evaluate_shared(ns, seed, x, keep):
    """evaluate on shared_model(seed) with the flags of model.modules() set to SHARED_MODES (the shared S and its
    layers in training mode, its second parent in eval mode): what it returned and the flags afterwards."""
    model = shared_model(seed)
    for m, mode in zip(model.modules(), SHARED_MODES):
        m.training = mode
    return _evaluate_report(ns, model, x, keep)


class Interrupting(nn.Module):
    """A layer whose forward raises KeyboardInterrupt (the user stopping a long evaluation)."""

    def forward(self, x):
        raise KeyboardInterrupt("raised inside model(x) by the judge")


INTERRUPT_MODES = [True, False, True, True]


def evaluate_interrupted(ns, seed, x, keep):
    """evaluate(model, x, keep_for_autograd=keep) on Sequential(Linear(4, 5), Dropout, Interrupting()) with mixed
    train flags (INTERRUPT_MODES): what came out (a BaseException is caught here and reported), the flags, grad mode
    and inference mode afterwards."""
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(4, 5), nn.Dropout(0.5), Interrupting())
    for m, mode in zip(model.modules(), INTERRUPT_MODES):
        m.training = mode
    before = [torch.is_grad_enabled(), torch.is_inference_mode_enabled()]
    try:
        get(ns, "evaluate")(model, x, keep_for_autograd=keep)
        err = None
    except BaseException as exc:  # noqa: BLE001  the KeyboardInterrupt must come out; caught here, reported
        err = type(exc).__name__
    after = [torch.is_grad_enabled(), torch.is_inference_mode_enabled()]
    torch.set_grad_enabled(before[0])
    return {"error": err, "modes_after": [m.training for m in model.modules()], "modes_before": INTERRUPT_MODES,
            "grad_modes_before": before, "grad_modes_after": after}


def evaluate_train_override(ns, seed, x, keep):
    """evaluate on train_override_model(seed) in training mode: what it returned (or raised) and the train flags
    of model.modules() afterwards."""
    model = train_override_model(seed)
    model.train()
    return _evaluate_report(ns, model, x, keep)


def _double_input(module, args):
    """A forward pre-hook: the model sees 2 * x."""
    return (args[0] * 2.0,) + tuple(args[1:])


def _shift_output(module, args, out):
    """A forward hook: the model's output plus 0.5."""
    return out + 0.5


def hooked_model(seed):
    """Sequential(Linear(4, 5), Dropout(0.5), Linear(5, 3)) with a forward pre-hook (input * 2) and a forward hook
    (output + 0.5) on the model itself, as nn.utils.weight_norm / spectral_norm or a normalising wrapper register
    (built the same on the judge): model(x) runs them, model.forward(x) does not."""
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(4, 5), nn.Dropout(0.5), nn.Linear(5, 3))
    model.register_forward_pre_hook(_double_input)
    model.register_forward_hook(_shift_output)
    return model


def evaluate_hooked(ns, seed, x, keep):
    """evaluate on hooked_model(seed) in training mode: what it returned (or raised) and the flags afterwards."""
    model = hooked_model(seed)
    model.train()
    return _evaluate_report(ns, model, x, keep)


def evaluate_parameterless(ns, x, keep):
    """evaluate on nn.Sequential(nn.Dropout(0.5), nn.Tanh()) in training mode, a model with no parameters:
    what it returned (or raised) and the train flags of model.modules() afterwards."""
    model = nn.Sequential(nn.Dropout(0.5), nn.Tanh())
    return _evaluate_report(ns, model, x, keep)


# ---------------------------------------------------------------- checkpoint
def run_checkpoint(ns, spec, x, x_grad, seed, v, unused=False, variant=None, twice=False):
    """checkpoint(model, x) from RNG seed ``seed``: the output, the count and bytes of tensors saved while it ran,
    the RNG state after forward and after backward, the gradients of <v, out> for x and every parameter, and
    whether the output is freed once the probe drops it (no garbage collection meanwhile, so an output kept
    alive by a reference cycle through its own node shows)."""
    gc_was = gc.isenabled()
    gc.disable()
    try:
        return _run_checkpoint(ns, spec, x, x_grad, seed, v, unused, variant, twice)
    finally:
        if gc_was:
            gc.enable()


def _run_checkpoint(ns, spec, x, x_grad, seed, v, unused, variant, twice=False):
    model = vary_model(build_model(spec), variant)
    if unused:  # a parameter the forward never uses
        model.spare = nn.Parameter(torch.ones(3))
    model.train()
    x = x.clone().requires_grad_(x_grad)
    x0 = x.detach().clone()
    n, nbytes = [0], [0]

    def pack(t):
        n[0] += 1
        nbytes[0] += t.numel() * t.element_size()
        return t

    torch.manual_seed(seed)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = get(ns, "checkpoint")(model, x)
    rng_forward = torch.get_rng_state()
    if not isinstance(out, torch.Tensor):
        return {"out": f"not a tensor: {type(out).__name__}"}
    # a later layer's dropout draws between forward and backward, so a backward that merely sets the RNG back to
    # forward's start and replays the block (ending where forward ended) shows as a change too
    torch.rand(5)
    rng_before_backward = torch.get_rng_state()
    params = [p for p in model.parameters() if p.requires_grad]  # frozen ones have no gradient to ask for
    wrt = ([x] if x_grad else []) + params
    err = None
    grads = []
    again = None
    if out.requires_grad:
        try:
            grads = list(torch.autograd.grad((out * v).sum(), wrt, allow_unused=True, retain_graph=twice))
        except Exception as exc:  # noqa: BLE001
            err = f"{type(exc).__name__}: {str(exc)[:200]}"
        if twice and err is None:  # a second pass over the same (retained) graph, as gradcheck makes
            try:
                again = [None if g is None else g.detach().clone()
                         for g in torch.autograd.grad((out * v).sum(), wrt, allow_unused=True)]
            except Exception as exc:  # noqa: BLE001
                again = f"{type(exc).__name__}: {str(exc)[:200]}"
    else:
        err = "the output does not require grad"
    rng_backward = torch.get_rng_state()
    res = {"out": out.detach().clone(), "saved": n[0], "saved_bytes": nbytes[0], "error": err,
           "grads": [None if g is None else g.detach().clone() for g in grads],
           "rng_forward": rng_forward, "rng_backward_same": bool(torch.equal(rng_before_backward, rng_backward)),
           "x_requires_grad_after": x.requires_grad, "x_unchanged": bool(torch.equal(x.detach(), x0)),
           "again": again}
    alive = weakref.ref(out)
    del out
    res["output_freed"] = alive() is None
    return res


def run_checkpoint_off_device(ns, spec, x, seed, v):
    """checkpoint(model, x) with the model (and a parameter its forward never uses) and x off the default device
    (probelib.stand_in_device: on meta, or on the CPU with meta as the default device where the code reads values),
    then torch.autograd.grad of <v, out> for every parameter: the output's and each gradient's device, dtype and
    shape, or what raised."""
    base = build_model(spec)  # built on the CPU: under the fallback the default device is meta
    base.spare = nn.Parameter(torch.ones(3))

    def run(device):
        model = copy.deepcopy(base).to(device).train()
        xd, vd = x.to(device), v.to(device)
        torch.manual_seed(seed)
        out = get(ns, "checkpoint")(model, xd)
        if not isinstance(out, torch.Tensor):
            return f"not a tensor: {type(out).__name__}", []
        grads = torch.autograd.grad((out * vd).sum(), list(model.parameters()), allow_unused=True)
        return out, list(grads)
    try:
        (out, grads), home = stand_in_device(run)
    except Exception as exc:  # noqa: BLE001
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    if isinstance(out, str):
        return {"error": out}
    return {"error": None, "out": _where(out, home), "grads": [_where(g, home) for g in grads]}


def run_checkpoint_chain(ns, specs, x, seed, v, order=None):
    """Blocks checkpointed one after the other from RNG seed ``seed`` (block ``order[k]`` k-th, so one block may
    come several times; by default each once, in turn), then ``backward()`` on <v, out>: the output and the .grad
    left on x and on every parameter of every block."""
    blocks = [build_model(s) for s in specs]
    x = x.clone().requires_grad_(True)
    torch.manual_seed(seed)
    h = x
    for k in (range(len(blocks)) if order is None else order):
        b = blocks[k]
        b.train()
        h = get(ns, "checkpoint")(b, h)
    if not isinstance(h, torch.Tensor):
        return {"out": f"not a tensor: {type(h).__name__}"}
    err = capture_error(lambda: (h * v).sum().backward())
    grads = [x.grad] + [p.grad for b in blocks for p in b.parameters()]
    return {"out": h.detach().clone(), "error": err if err["raised"] else None,
            "grads": [None if g is None else g.detach().clone() for g in grads]}


def embedding_block(seed):
    """A block fed with integer data: token ids through nn.Embedding, dropout, then a Linear layer (built from
    ``seed``, the same on the judge)."""
    torch.manual_seed(seed)
    return nn.Sequential(nn.Embedding(12, 5), nn.Dropout(0.3), nn.Linear(5, 3))


def run_checkpoint_ids(ns, model_seed, ids, seed, v):
    """checkpoint(block, ids) for embedding_block(model_seed) on an int64 batch of token ids (which cannot require
    grad), from RNG seed ``seed``, then torch.autograd.grad of <v, out> for every parameter: the output and the
    gradients, or what raised, and whether ids is unchanged."""
    model = embedding_block(model_seed).train()
    ids0 = ids.clone()
    torch.manual_seed(seed)
    try:
        out = get(ns, "checkpoint")(model, ids)
    except Exception as exc:  # noqa: BLE001
        return {"error": f"forward raised {type(exc).__name__}: {str(exc)[:200]}"}
    if not isinstance(out, torch.Tensor):
        return {"error": f"returned not a tensor: {type(out).__name__}"}
    try:
        grads = torch.autograd.grad((out * v).sum(), list(model.parameters()), allow_unused=True)
    except Exception as exc:  # noqa: BLE001
        return {"error": f"backward raised {type(exc).__name__}: {str(exc)[:200]}", "out": out.detach().clone()}
    return {"error": None, "out": out.detach().clone(), "grads": [None if g is None else g.clone() for g in grads],
            "ids_unchanged": bool(torch.equal(ids, ids0)) and ids.dtype == ids0.dtype and not ids.requires_grad}
