"""Probes for 16-01: run next to the submission, return plain data only (nothing is compared here)."""
import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.utils._python_dispatch import TorchDispatchMode

from course.judge.probelib import get, relayout
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)


def _tensor(x):
    return x.detach().clone() if isinstance(x, torch.Tensor) else f"<{type(x).__name__}>"


def _meta(t):
    """Shape, strides, dtype and device of a tensor (a real, fake or meta one), or its type's name."""
    if not isinstance(t, torch.Tensor):
        return {"type": type(t).__name__}
    return {"type": "Tensor", "shape": list(t.shape), "stride": list(t.stride()), "dtype": str(t.dtype),
            "device": t.device.type}


def _op(name):
    """The operator c1601::<name> through the dispatcher (AttributeError when it is not registered)."""
    return getattr(torch.ops.c1601, name).default


def _storage(t):
    return t.untyped_storage().data_ptr() if isinstance(t, torch.Tensor) and t.device.type != "meta" else None


def _saved_log():
    """Hooks that note every tensor autograd saves: its bytes, dtype, shape and storage (not the tensor)."""
    log = []

    def pack(t):
        log.append({"bytes": t.nelement() * t.element_size(), "dtype": str(t.dtype), "shape": list(t.shape),
                    "storage": _storage(t), "value": t.detach().clone()})
        return t
    return log, torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t)


def _errors(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - the judge reports it
        return {"error": f"{type(exc).__name__}: {str(exc)[:400]}"}


# ------------------------------------------------------------------ exercises 1 and 2: smooth_clip
def _changed(now, before):
    """Whether a tensor's values changed (NaN where NaN was counts as unchanged, and so does a zero's sign: only
    values are compared; torch.equal calls a tensor holding NaN changed)."""
    same = (now == before) | (torch.isnan(now) & torch.isnan(before))
    return not bool(same.all())


def clip_run(ns, x, limit, layout="contiguous", via="ops"):
    """smooth_clip(x, limit) on x laid out as layout, through torch.ops (via='ops') or the notebook's name. (A default
    device set around this call would not reach the kernel: the dispatcher runs it outside the device mode; the
    device is clip_kernel_device's.)"""
    def go():
        xin = relayout(x, layout)
        before = xin.clone()
        fn = _op("smooth_clip") if via == "ops" else get(ns, "smooth_clip")
        out = fn(xin, limit)
        return {"out": _tensor(out), "meta": _meta(out), "in_meta": _meta(xin),
                "x_changed": _changed(xin, before),
                "shares_input": isinstance(out, torch.Tensor) and _storage(out) == _storage(xin)}
    return _errors(go)


def clip_kernel_device(ns, cases, limit):
    """smooth_clip's kernel (the one registered for CUDA, else the one for every device) called directly, not through
    the dispatcher (which would send meta inputs to the fake kernel, and hides a default device from the kernel),
    off the default device by probelib.stand_in_device: the output's metadata for each (shape, layout) case."""
    from torch._library.custom_ops import OPDEFS

    from course.judge.probelib import stand_in_device

    def go():
        opdef = OPDEFS.get("c1601::smooth_clip")
        if opdef is None:
            return {"error": "no operator c1601::smooth_clip was registered with torch.library.custom_op"}
        fns = getattr(opdef, "_backend_fns", {})
        fn = fns.get("cuda") or fns.get(None) or opdef._init_fn
        # the dispatcher's own answer: does a CUDA tensor reach a kernel (one for CUDA, or one for every device)?
        cuda = torch._C._dispatch_has_computed_kernel_for_dispatch_key("c1601::smooth_clip", "CUDA")

        def run(device):
            outs = []
            for shape, layout in cases:
                real = relayout(torch.randn(shape, dtype=torch.float64), layout)
                x = torch.empty_strided(real.shape, real.stride(), dtype=real.dtype, device=device)
                if device != "meta":
                    x.copy_(real)
                outs.append(_meta(fn(x, limit)))
            return outs
        # and one for every device: a device the registration does not name (an XPU, an MPS GPU, a PrivateUse1
        # backend) reaches a kernel too (device_types=("cpu", "cuda") leaves them none)
        others = {k: torch._C._dispatch_has_computed_kernel_for_dispatch_key("c1601::smooth_clip", k)
                  for k in ("XPU", "MPS", "PrivateUse1")}
        outs, home = stand_in_device(run)
        return {"outs": outs, "home": home, "cuda_kernel": cuda, "other_devices": others,
                "kernels_for": sorted("every device" if k is None else str(k) for k in fns)}
    return _errors(go)


def clip_fake(ns, shape, dtype, layout, limit):
    """smooth_clip's output metadata under FakeTensorMode and on the meta device, for x laid out as layout."""
    dt = getattr(torch, dtype)

    def fake():
        real = relayout(torch.randn(shape, dtype=dt), layout)
        with FakeTensorMode() as mode:
            fx = mode.from_tensor(real)
            out = _op("smooth_clip")(fx, limit)
            return {"out": _meta(out), "fake": type(out).__name__ == "FakeTensor", "in": _meta(real),
                    "is_input": out is fx}

    def meta():
        real = relayout(torch.randn(shape, dtype=dt), layout)
        mx = torch.empty_strided(real.shape, real.stride(), dtype=dt, device="meta")
        return {"out": _meta(_op("smooth_clip")(mx, limit)), "in": _meta(mx)}
    return {"fake": _errors(fake), "meta": _errors(meta)}


def clip_two_calls(ns, x1, x2, limit):
    """Two calls of smooth_clip on inputs of the same shape, dtype and layout: both outputs read after the second
    call, and whether the two share memory."""
    def go():
        op = _op("smooth_clip")
        first = op(x1.clone(), limit)
        second = op(x2.clone(), limit)
        return {"first": _tensor(first), "second": _tensor(second),
                "same_storage": isinstance(first, torch.Tensor) and _storage(first) == _storage(second)}
    return _errors(go)


def clip_schema(ns):
    """The schema of c1601::smooth_clip as the dispatcher holds it."""
    return _errors(lambda: {"schema": str(_op("smooth_clip")._schema)})


def clip_compile(ns, x, limit):
    """A function calling the notebook's smooth_clip, compiled with fullgraph=True and a recording backend."""
    graphs = []

    def backend(gm, example_inputs):
        graphs.append([str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
        return gm.forward

    def go():
        fn = get(ns, "smooth_clip")
        compiled = torch.compile(lambda t: fn(t, limit) * 2.0 + 1.0, backend=backend, fullgraph=True)
        out = compiled(x)
        return {"out": _tensor(out), "graphs": graphs}
    res = _errors(go)
    torch._dynamo.reset()
    return res


def clip_grad(ns, x, limit, v, layout="contiguous"):
    """The gradient of <v, smooth_clip(x, limit)>, and what autograd saved (bytes, dtype, storage, values)."""
    def go():
        xin = relayout(x, layout).requires_grad_(True)
        log, hooks = _saved_log()
        with hooks:
            out = _op("smooth_clip")(xin, limit)
        if not isinstance(out, torch.Tensor) or out.grad_fn is None:
            return {"error": f"the output has no grad_fn (got {type(out).__name__}): no autograd formula ran"}
        (g,) = torch.autograd.grad(out, xin, v)
        for s in log:
            s["is_input"] = s["storage"] == _storage(xin)
            s["is_output"] = s["storage"] == _storage(out)
        return {"out": _tensor(out), "grad": _tensor(g), "saved": log}
    return _errors(go)


def clip_grad_device(ns, shape, limit):
    """smooth_clip's forward and backward off the default device (probelib.stand_in_device, the grader's stand-in for
    a GPU: meta inputs, or CPU inputs with meta as the default device where the code needs values): the gradient's
    metadata and the devices each operator was given, or the error."""
    from course.judge.probelib import stand_in_device

    def run(device):
        x = torch.zeros(shape, dtype=torch.float32, device=device).requires_grad_(True)
        v = torch.ones(shape, dtype=torch.float32, device=device)
        with _DeviceLog() as log:
            out = _op("smooth_clip")(x, limit)
            grad = None
            if isinstance(out, torch.Tensor) and out.grad_fn is not None:
                (grad,) = torch.autograd.grad(out, x, v)
        return {"grad": _meta(grad) if grad is not None else None,
                "devices": {k: sorted(d) for k, d in log.seen.items()}}

    def go():
        res, home = stand_in_device(run)
        return {**res, "home": home}
    return _errors(go)


def clip_x_released(ns, x, limit, v):
    """Whether x's memory is released when the caller drops x between the forward and the backward of
    smooth_clip (x a non-leaf, so only what the formula keeps can hold it), and the gradient afterwards."""
    import gc

    from torch.multiprocessing.reductions import StorageWeakRef

    def go():
        leaf = x.clone().requires_grad_(True)
        xin = leaf.clone()  # CloneBackward keeps nothing: once dropped, only the formula's ctx could hold x
        ref = StorageWeakRef(xin.untyped_storage())
        out = _op("smooth_clip")(xin, limit)
        del xin
        gc.collect()
        released = ref.expired()
        (g,) = torch.autograd.grad(out, leaf, v)
        return {"released": released, "grad": _tensor(g)}
    return _errors(go)


def clip_grad_two_limits(ns, x, limits, v):
    """Two outputs of smooth_clip with different limits, both built before one backward pass through them:
    the gradient of <v, op(x, limits[0])> + <v, op(x, limits[1])> for each call's own copy of x."""
    def go():
        xs = [x.clone().requires_grad_(True) for _ in limits]
        outs = [_op("smooth_clip")(xi, lim) for xi, lim in zip(xs, limits)]
        return {"grads": [_tensor(g) for g in torch.autograd.grad(outs, xs, [v] * len(outs))]}
    return _errors(go)


def clip_gradgrad(ns, x, limit, v, w):
    """Second order: d/d(x, v) of <w, grad_x <v, smooth_clip(x, limit)>>."""
    def go():
        xin, vin = x.clone().requires_grad_(True), v.clone().requires_grad_(True)
        out = _op("smooth_clip")(xin, limit)
        (g,) = torch.autograd.grad(out, xin, vin, create_graph=True)
        if g.grad_fn is None:
            return {"error": "the gradient has no grad_fn: the backward is not differentiable"}
        gx, gv = torch.autograd.grad(g, (xin, vin), w, allow_unused=True)
        return {"gx": _tensor(gx) if gx is not None else None, "gv": _tensor(gv) if gv is not None else None}
    return _errors(go)


# ------------------------------------------------------------------ exercise 3: ema_
def ema_schema(ns):
    def go():
        made = get(ns, "register_ema")()
        return {"schema": str(_op("ema_")._schema), "returned": type(made).__name__}
    return _errors(go)


def ema_run(ns, avg, x, decay, layout="contiguous", via="ops"):
    """ema_(avg, x, decay) on avg laid out as layout: the result, avg and x afterwards, avg's storage kept."""
    def go():
        made = get(ns, "register_ema")()
        fn = _op("ema_") if via == "ops" else made
        a = relayout(avg, layout)
        xin = x.clone()
        ptr, stride = _storage(a), a.stride()
        res = fn(a, xin, decay)
        return {"result": "None" if res is None else type(res).__name__, "avg": a.clone(), "x": xin.clone(),
                "same_storage": _storage(a) == ptr, "stride": list(a.stride()), "stride_before": list(stride)}
    return _errors(go)


def ema_kernel_device(ns, shape, xshape, decay):
    """ema_'s kernel (the one registered for CUDA, else the one for every device) called directly, off the default
    device by probelib.stand_in_device (the grader's stand-in for a GPU): avg's metadata after the call and the
    devices each operator was given, or the error."""
    from torch._library.custom_ops import OPDEFS

    from course.judge.probelib import stand_in_device

    def go():
        get(ns, "register_ema")()
        opdef = OPDEFS.get("c1601::ema_")
        if opdef is None:
            return {"error": "no operator c1601::ema_ was registered with torch.library.custom_op"}
        fns = getattr(opdef, "_backend_fns", {})
        fn = fns.get("cuda") or fns.get(None)
        if fn is None:
            return {"error": f"c1601::ema_ has no kernel for CUDA, nor one for every device (kernels for "
                             f"{sorted(str(k) for k in fns)})"}

        def run(device):
            avg = torch.zeros(shape, dtype=torch.float32, device=device)
            x = torch.ones(xshape, dtype=torch.float32, device=device)
            with _DeviceLog() as log:
                fn(avg, x, decay)
            return {"avg": _meta(avg), "devices": {k: sorted(d) for k, d in log.seen.items()}}
        res, home = stand_in_device(run)
        return {**res, "home": home}
    return _errors(go)


def ema_compiled(ns, avg, x, d1, d2):
    """avg after a compiled (fullgraph, aot_eager) function calls ema_ twice: (avg, x, d1) then (avg, 2x, d2)."""
    def go():
        get(ns, "register_ema")()
        op = _op("ema_")

        def twice(a, t):
            op(a, t, d1)
            op(a, t * 2.0, d2)
            return t + 1.0
        a = avg.clone()
        out = torch.compile(twice, backend="aot_eager", fullgraph=True)(a, x.clone())
        return {"avg": a.clone(), "out": _tensor(out)}
    res = _errors(go)
    torch._dynamo.reset()
    return res


# ------------------------------------------------------------------ exercise 4: gelu_dropout
def fused_run(ns, x, p, seed=None, v=None, layout="contiguous", after=4):
    """gelu_dropout(x, p, generator): the output, the gradient of <v, output>, what autograd saved (x_storage: the
    storage x lies in, for the saved tensors' storage to be compared with), and `after` draws the generator gives once
    the call returns."""
    def go():
        g = None if seed is None else torch.Generator().manual_seed(seed)
        xin = relayout(x, layout).requires_grad_(v is not None)
        log, hooks = _saved_log()
        with hooks:
            out = get(ns, "gelu_dropout")(xin, p, g)
        res = {"out": _tensor(out), "meta": _meta(out), "in_meta": _meta(xin), "x_storage": _storage(xin),
               "next": torch.rand(after, generator=g, dtype=torch.float64) if g is not None else None}
        if v is not None and isinstance(out, torch.Tensor):
            if out.grad_fn is None:
                return {**res, "error": "the output has no grad_fn: no autograd formula ran"}
            res["nodes"] = _graph_nodes(out)
            res["grad"] = torch.autograd.grad(out, xin, v)[0]
            res["saved"] = [{k: s[k] for k in ("bytes", "dtype", "shape", "storage", "value")} for s in log]
        return res
    return _errors(go)


def _graph_nodes(out, limit=64):
    """The names of the autograd nodes behind out (breadth first, at most limit of them)."""
    seen, todo, names = set(), [out.grad_fn], []
    while todo and len(names) < limit:
        node = todo.pop(0)
        if node is None or node in seen:
            continue
        seen.add(node)
        names.append(node.name())
        todo += [n for n, _ in node.next_functions]
    return names


def fused_default_generator(ns, x, p, seed, v, after=4):
    """gelu_dropout(x, p) without a generator, after torch.manual_seed(seed): the output, the gradient of
    <v, output> and `after` draws of the default generator once the call returns (its state restored after)."""
    def go():
        xin = x.clone().requires_grad_(True)
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            out = get(ns, "gelu_dropout")(xin, p)
            nxt = torch.rand(after, dtype=torch.float64)
        res = {"out": _tensor(out), "next": nxt}
        if isinstance(out, torch.Tensor):
            if out.grad_fn is None:
                return {**res, "error": "the output has no grad_fn: no autograd formula ran"}
            res["grad"] = _tensor(torch.autograd.grad(out, xin, v)[0])
        return res
    return _errors(go)


def fused_two_ps(ns, x, ps, seeds, v):
    """Two outputs of gelu_dropout with different p (each from a generator seeded with its own seed), both built
    before one backward pass: the gradient of <v, out_0> + <v, out_1> for each call's own copy of x."""
    def go():
        xs = [x.clone().requires_grad_(True) for _ in ps]
        outs = [get(ns, "gelu_dropout")(xi, p, torch.Generator().manual_seed(s)) for xi, p, s in zip(xs, ps, seeds)]
        return {"grads": [_tensor(g) for g in torch.autograd.grad(outs, xs, [v] * len(outs))]}
    return _errors(go)


def fused_op(ns, x, keep, p, layout="contiguous", keep_layout=None, v=None):
    """torch.ops.c1601.gelu_dropout_op(x, keep, p) on x laid out as layout and keep as keep_layout (default: the
    same), and under FakeTensorMode; with v, also the gradient of <v, op(x', keep, p)> for a copy x' of x."""
    def go():
        xin, kin = relayout(x, layout), relayout(keep, keep_layout or layout)
        xb, kb = xin.clone(), kin.clone()
        out = _op("gelu_dropout_op")(xin, kin, p)
        changed = [n for n, a, b in (("x", xin, xb), ("keep", kin, kb)) if not torch.equal(a, b)]
        with FakeTensorMode() as mode:
            fx = mode.from_tensor(xin)
            fout = _op("gelu_dropout_op")(fx, mode.from_tensor(kin), p)
            fake = {"meta": _meta(fout), "fake": type(fout).__name__ == "FakeTensor", "is_input": fout is fx}
        res = {"out": _tensor(out), "meta": _meta(out), "in_meta": _meta(xin), "fake": fake, "changed": changed}
        if v is not None:
            xg = xin.detach().clone().requires_grad_(True)
            outg = _op("gelu_dropout_op")(xg, kin, p)
            if not isinstance(outg, torch.Tensor) or outg.grad_fn is None:
                return {**res, "error": "the operator's output has no grad_fn: no autograd formula ran"}
            res["grad"] = _tensor(torch.autograd.grad(outg, xg, v)[0])
        return res
    return _errors(go)


class _DeviceLog(TorchDispatchMode):
    """For every operator that runs, the devices of its tensor arguments with at least one dimension."""

    def __init__(self):
        super().__init__()
        self.seen, self.generators = {}, {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        flat = list(args) + list((kwargs or {}).values())
        flat += [t for a in flat if isinstance(a, (list, tuple)) for t in a]
        devices = {t.device.type for t in flat if isinstance(t, torch.Tensor) and t.dim() > 0}
        if devices:
            self.seen.setdefault(str(func.overloadpacket), set()).update(devices)
        gens = {g.device.type for g in flat if isinstance(g, torch.Generator)}
        if gens:  # an explicit generator: the device it draws for
            self.generators.setdefault(str(func.overloadpacket), set()).update(gens)
        return func(*args, **(kwargs or {}))


def fused_on_meta(ns, shape, dtype, p, with_generator, warm=False):
    """gelu_dropout and its backward off the default device (the grader's stand-in for a GPU: meta inputs, or CPU
    inputs with meta as the default device where the code needs values): the output's metadata, the devices each
    operator was given (forward and backward), the gradient's device, and the inputs' device (home), or the error.
    With warm=True, one call on a CPU x of the same shape, dtype and p comes first (a tensor kept from it and
    reused by the next call sits on the CPU)."""
    from course.judge.probelib import stand_in_device

    if warm:
        with torch.random.fork_rng(devices=[]):
            warmed = _errors(lambda: get(ns, "gelu_dropout")(
                torch.zeros(shape, dtype=getattr(torch, dtype)), p,
                torch.Generator().manual_seed(1) if with_generator else None) is None)
        if isinstance(warmed, dict):
            return {"error": f"the first call, on a CPU x, raised {warmed['error']}"}

    def run(device):
        x = torch.zeros(shape, dtype=getattr(torch, dtype), device=device).requires_grad_(True)
        v = torch.ones(shape, dtype=getattr(torch, dtype), device=device)
        g = torch.Generator().manual_seed(0) if with_generator else None
        with _DeviceLog() as log:
            out = get(ns, "gelu_dropout")(x, p, g)
            grad = None
            if isinstance(out, torch.Tensor) and out.grad_fn is not None:
                (grad,) = torch.autograd.grad(out, x, v)
        return {"out": _meta(out), "grad": _meta(grad) if grad is not None else None,
                "devices": {k: sorted(v) for k, v in log.seen.items()},
                "generators": {k: sorted(v) for k, v in log.generators.items()}}

    def go():
        res, home = stand_in_device(run)
        return {**res, "home": home}
    return _errors(go)


# ------------------------------------------------------------------ exercise 5: the Triton kernel
class _Interpreted:
    """Runs every Triton kernel launch in Triton's interpreter (CPU tensors), noting each launch's grid; on
    exit the JIT is restored. With real=True, launches run as compiled and are only noted."""

    def __init__(self, real=False, on_launch=None):
        self.real, self.grids, self.saved, self.on_launch = real, [], None, on_launch

    def __enter__(self):
        from triton.runtime.interpreter import InterpretedFunction
        from triton.runtime.jit import JITFunction
        cache, grids, real, on_launch = {}, self.grids, self.real, self.on_launch
        self.saved = (JITFunction, JITFunction.__call__, JITFunction.run)
        orig_run = JITFunction.run

        def interp(fn):
            if fn.fn not in cache:
                cache[fn.fn] = InterpretedFunction(fn.fn)
            return cache[fn.fn]

        def run(fn, *args, grid, warmup, **kwargs):
            if on_launch is not None and not warmup:
                on_launch(list(args) + list(kwargs.values()))
            if not warmup:
                shown = grid(dict(kwargs, **dict(zip(fn.arg_names, args)))) if callable(grid) else grid
                grids.append([int(g) for g in (shown if isinstance(shown, (tuple, list)) else (shown,))])
            if real:
                return orig_run(fn, *args, grid=grid, warmup=warmup, **kwargs)
            return interp(fn).run(*args, grid=grid, warmup=warmup, **kwargs)
        if not real:
            JITFunction.__call__ = lambda fn, *a, **k: interp(fn)(*a, **k)
        JITFunction.run = run
        return self

    def __exit__(self, *exc):
        cls, call, run = self.saved
        cls.__call__, cls.run = call, run
        return False


def triton_cuda_kernel(ns, x, keep, p, layout="contiguous"):
    """The function registered as gelu_dropout_op's CUDA kernel, called on CPU tensors with its Triton launches
    run in the interpreter."""
    def go():
        registered = torch._C._dispatch_has_kernel_for_dispatch_key("c1601::gelu_dropout_op", "CUDA")
        fn = getattr(get(ns, "gelu_dropout_op"), "_backend_fns", {}).get("cuda")
        if not registered or fn is None:
            return {"registered": False}
        xin, kin = relayout(x, layout), relayout(keep, layout)
        with _Interpreted() as run:
            out = fn(xin, kin, p)
        return {"registered": True, "out": _tensor(out), "meta": _meta(out), "in_meta": _meta(xin), "grids": run.grids}
    return _errors(go)


def triton_interpreted(ns, x, keep, p, block=None, layout="contiguous", keep_layout=None):
    """launch_gelu_dropout(x, keep, p[, block]) on CPU tensors (keep laid out as keep_layout, default: x's layout),
    its kernel run in Triton's interpreter."""
    def go():
        fn = get(ns, "launch_gelu_dropout")
        xin, kin = relayout(x, layout), relayout(keep, keep_layout or layout)
        with _Interpreted() as run:
            out = fn(xin, kin, p) if block is None else fn(xin, kin, p, block=block)
        return {"out": _tensor(out), "meta": _meta(out), "grids": run.grids, "x_after": xin.clone()}
    return _errors(go)


def triton_two_calls(ns, x1, x2, keep, p):
    """Two calls of launch_gelu_dropout on inputs of the same shape and dtype (kernels in Triton's interpreter):
    both results read after the second call, and whether the two share memory."""
    def go():
        fn = get(ns, "launch_gelu_dropout")
        with _Interpreted():
            first = fn(x1.clone(), keep.clone(), p)
            second = fn(x2.clone(), keep.clone(), p)
        return {"first": _tensor(first), "second": _tensor(second),
                "same_storage": isinstance(first, torch.Tensor) and isinstance(second, torch.Tensor)
                and _storage(first) == _storage(second)}
    return _errors(go)


# Factories that put a tensor on the default device unless given device= (on a GPU: the CPU).
_FACTORIES = ("empty", "zeros", "ones", "full", "rand", "randn", "randint", "arange", "tensor", "empty_strided")


def triton_placement(ns, x, keep, p, block=64):
    """launch_gelu_dropout in the interpreter while a TorchFunctionMode records the tensors that factories make
    without device= (a GPU stand-in: on a GPU such a tensor is on the CPU): which kernel arguments are one of
    them (or a view of one), by position in the launch."""
    from torch.overrides import TorchFunctionMode
    factories = {getattr(torch, n) for n in _FACTORIES}
    made, bad = {}, []

    class Recorder(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            out = func(*args, **kwargs)
            if isinstance(out, torch.Tensor):
                if func in factories and kwargs.get("device") is None:
                    made[id(out)] = out
                elif func in (torch.Tensor.to, torch.Tensor.cuda):  # placed on a device: no longer recorded
                    if func is torch.Tensor.cuda or "device" in kwargs or any(
                            isinstance(a, (torch.device, str, torch.Tensor)) for a in args[1:]):
                        made.pop(id(out), None)
            return out

    def on_launch(args):
        for i, a in enumerate(args):
            if isinstance(a, torch.Tensor) and (id(a) in made or (a._base is not None and id(a._base) in made)):
                bad.append(i)

    def go():
        fn = get(ns, "launch_gelu_dropout")
        with _Interpreted(on_launch=on_launch), Recorder():
            out = fn(x, keep, p, block=block)
        return {"out": _tensor(out), "unplaced_args": bad}
    return _errors(go)


class _Accesses:
    """While active, notes every element address the Triton interpreter loads or stores (mask on) that lies outside
    the given tensors' first n elements: {"load": count, "store": count}."""

    def __init__(self, tensors, n):
        self.ranges = [(t.data_ptr(), t.data_ptr() + n * t.element_size()) for t in tensors]
        self.outside = {"load": 0, "store": 0}

    def _note(self, kind, ptrs, mask):
        import numpy as np
        addr = np.asarray(ptrs.data).astype(np.uint64).ravel()
        on = np.ones(addr.shape, dtype=bool) if mask is None else np.asarray(mask.data, dtype=bool).ravel()
        addr = addr[np.broadcast_to(on, addr.shape)]
        inside = np.zeros(addr.shape, dtype=bool)
        for lo, hi in self.ranges:
            inside |= (addr >= lo) & (addr < hi)
        self.outside[kind] += int((~inside).sum())

    def __enter__(self):
        from triton.runtime.interpreter import InterpreterBuilder
        self.saved = (InterpreterBuilder.create_masked_load, InterpreterBuilder.create_masked_store)
        load, store, note = self.saved + (self._note,)

        def masked_load(b, ptrs, mask, *a, **k):
            note("load", ptrs, mask)
            return load(b, ptrs, mask, *a, **k)

        def masked_store(b, ptrs, value, mask, *a, **k):
            note("store", ptrs, mask)
            return store(b, ptrs, value, mask, *a, **k)
        InterpreterBuilder.create_masked_load, InterpreterBuilder.create_masked_store = masked_load, masked_store
        return self

    def __exit__(self, *exc):
        from triton.runtime.interpreter import InterpreterBuilder
        InterpreterBuilder.create_masked_load, InterpreterBuilder.create_masked_store = self.saved
        return False


def triton_kernel_bounds(ns, x, keep, p, block, sentinel):
    """gelu_dropout_kernel launched by the judge itself, in the interpreter, on a grid of cdiv(n, block) programs,
    into an output that is the first n elements of a larger buffer filled with sentinel: what lies past n after, and
    how many element addresses it loaded or stored outside x, keep and out's first n elements. Then once more on a
    grid of one program into a fresh such buffer (program 0 handles elements 0 to block - 1 only): that buffer."""
    def go():
        import triton
        kernel, n = get(ns, "gelu_dropout_kernel"), x.numel()
        buf, one = (torch.full((n + 2 * block,), sentinel, dtype=x.dtype) for _ in range(2))
        with _Interpreted(), _Accesses((x, keep, buf), n) as acc:
            kernel[(triton.cdiv(n, block),)](x, keep, buf[:n], n, 1.0 / (1.0 - p), BLOCK=block)
        with _Interpreted():
            kernel[(1,)](x, keep, one[:n], n, 1.0 / (1.0 - p), BLOCK=block)
        return {"out": _tensor(buf[:n]), "past": _tensor(buf[n:]), "outside": acc.outside, "one_program": _tensor(one)}
    return _errors(go)


def triton_on_gpu(ns, x, p, seed, v, layout="contiguous"):
    """gelu_dropout on CUDA tensors (a CUDA generator seeded with seed): output, gradient, Triton launches."""
    def go():
        xin = relayout(x.cuda(), layout).requires_grad_(True)
        g = torch.Generator(device="cuda").manual_seed(seed)
        with _Interpreted(real=True) as run:
            out = get(ns, "gelu_dropout")(xin, p, g)
        grad = torch.autograd.grad(out, xin, v.cuda())[0]
        return {"out": out.detach().cpu(), "meta": _meta(out), "in_meta": _meta(xin), "grad": grad.cpu(),
                "grids": run.grids}
    return _errors(go)
