"""Probes for 16-02: run next to the submission, return plain data only (nothing is compared here)."""
import inspect

import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
from torch._C._functorch import is_functorch_wrapped_tensor
from torch.func import grad, jacfwd, jacrev, jvp, vmap
from torch.utils._python_dispatch import TorchDispatchMode

from course.judge.probelib import build_model, get, global_state, off_default_device, relative_device
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)


# A custom op registered by the submission (torch.library) reaches the log as one op: what its kernel runs is inside
# the mode's own handling, out of every log (red team 21). Such an op is named with its namespace ("ns::name").
_PYTORCH_NAMESPACES = frozenset({"aten", "prims"})


def _op_name(func) -> str:
    name = str(func.overloadpacket.__name__)
    ns = getattr(func, "namespace", "aten")
    return name if ns in _PYTORCH_NAMESPACES else f"{ns}::{name}"


class _OpLog(TorchDispatchMode):
    """Names every aten op that runs (an op of another registry as "ns::name"), and the largest tensor any op
    creates."""

    def __init__(self):
        super().__init__()
        self.names = set()
        self.largest = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.names.add(_op_name(func))
        for t in out if isinstance(out, (list, tuple)) else [out]:
            if isinstance(t, torch.Tensor):
                self.largest = max(self.largest, t.numel())
        return out


def _error(exc):
    return f"{type(exc).__name__}: {str(exc)[:300]}"


def _close_levels():
    """Closes a dual level a submission left open, so that the next probe starts clean; returns the level found."""
    level = fwAD._current_level
    while fwAD._current_level >= 0:
        fwAD.exit_dual_level()
    return level


CALLS = []
BACKWARD_UNDER_JVP = []  # per run of Cube.backward: was a forward-mode pass (dual level or jvp transform) open over it


def _forward_mode_open():
    """True while forward-mode AD runs over the current code: a forward_ad dual level, or torch.func.jvp."""
    if fwAD._current_level >= 0:
        return True
    from torch._functorch.pyfunctorch import retrieve_all_functorch_interpreters
    return any(str(i.key()).endswith("Jvp") for i in retrieve_all_functorch_interpreters())


class Cube(torch.autograd.Function):
    """x ** 3 with both formulas; each formula notes in CALLS that it ran (the judge's record of the mode)."""

    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x * x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.save_for_forward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        CALLS.append("backward")
        BACKWARD_UNDER_JVP.append(_forward_mode_open())
        (x,) = ctx.saved_tensors
        return 3 * x * x * g

    @staticmethod
    def jvp(ctx, t):
        CALLS.append("jvp")
        (x,) = ctx.saved_tensors
        return 3 * x * x * t


# ------------------------------------------------------------------ exercise 1: SiLU
def silu(ns, mode, x, t=None, w=None, in_dims=0):
    """One use of SiLU.apply under `mode`; which of its formulas ran (its class patched to note each call),
    and the aten ops of the call."""
    cls = get(ns, "SiLU")
    calls = []
    saved = {}
    for name in ("backward", "jvp"):  # the formulas the class has, its own or inherited (not Function's defaults)
        raw = inspect.getattr_static(cls, name, None)
        if raw is None or raw is inspect.getattr_static(torch.autograd.Function, name, None):
            continue
        fn = raw.__func__ if isinstance(raw, staticmethod) else raw
        saved[name] = vars(cls).get(name)
        setattr(cls, name, staticmethod((lambda f, nm: lambda *a, **k: (calls.append(nm), f(*a, **k))[1])(fn, name)))
    f = cls.apply
    res = {}
    try:
        with _OpLog() as log:
            if mode == "value":
                out = f(x)
            elif mode == "backward":
                xr = x.clone().requires_grad_(True)
                out = torch.autograd.grad(f(xr), xr, t)[0]
            elif mode == "backward_pair":  # two calls whose graphs are alive at once, then one backward over both
                xr, wr = x.clone().requires_grad_(True), w.clone().requires_grad_(True)
                out = torch.stack(torch.autograd.grad((f(xr), f(wr)), (xr, wr), (t, t)))
            elif mode == "dual":
                with fwAD.dual_level():
                    out = fwAD.unpack_dual(f(fwAD.make_dual(x, t))).tangent
            elif mode == "func_jvp":
                out = jvp(f, (x,), (t,))[1]
            elif mode == "jacfwd":
                out = jacfwd(f)(x)
            elif mode == "jacrev":
                out = jacrev(f)(x)
            elif mode == "vmap":
                out = vmap(f, in_dims=in_dims)(x)
            elif mode == "vmap_grad":
                out = vmap(grad(lambda xi: (f(xi) * xi).sum()))(x)
            elif mode == "second":  # <w, d/dx <t, f(x)>> by double backward
                xr = x.clone().requires_grad_(True)
                (g1,) = torch.autograd.grad(f(xr), xr, t, create_graph=True)
                out = torch.autograd.grad(g1, xr, w)[0]
            elif mode == "hvp":
                out = jvp(grad(lambda xi: f(xi).sum()), (x,), (t,))[1]
            elif mode == "rev_over_fwd":  # <w, d/dx (J t)>: the jvp formula differentiated in reverse mode
                out = grad(lambda xi: (jvp(f, (xi,), (t,))[1] * w).sum())(x)
            else:
                raise ValueError(mode)
        res["out"] = out.detach().clone() if isinstance(out, torch.Tensor) else f"<{type(out).__name__}>"
        res["ops"] = sorted(log.names)
    except Exception as exc:  # noqa: BLE001 - reported to the judge
        res["error"] = _error(exc)
    finally:
        for name, orig in saved.items():
            if orig is None:
                delattr(cls, name)
            else:
                setattr(cls, name, orig)
        _close_levels()
    res["calls"] = sorted(set(calls))
    return res


def silu_devices(ns, x, t):
    """SiLU.apply's value, the gradient of <t, SiLU.apply(x)> (backward) and the dual tangent (jvp), with x and t off
    the default device (probelib.off_default_device): each result's device relative to the inputs', or what went
    wrong."""
    f = get(ns, "SiLU").apply

    def three(x, t):
        out = f(x)
        xr = x.detach().clone().requires_grad_(True)
        g = torch.autograd.grad(f(xr), xr, t)[0]
        with fwAD.dual_level():
            tangent = fwAD.unpack_dual(f(fwAD.make_dual(x, t))).tangent
        return out, g, tangent

    try:
        outs, home = off_default_device(three, (x, t))
        res = {"devices": [relative_device(o, home) if isinstance(o, torch.Tensor) else f"<{type(o).__name__}>"
                           for o in outs]}
    except Exception as exc:  # noqa: BLE001
        res = {"error": _error(exc)}
    _close_levels()
    return res


# ------------------------------------------------------------------ exercise 2: dual_jvp
def _jvp_fn(which, seen):
    """The judge's function `which`; each call notes, per argument, whether it is a forward_ad dual tensor (a
    tangent, and not a torch.func wrapper)."""
    def note(args):
        MODES.append(torch.is_grad_enabled())
        seen.append([fwAD.unpack_dual(a).tangent is not None and not is_functorch_wrapped_tensor(a) for a in args])

    if which == "sin_prod":
        def f(a, b):
            note((a, b))
            return (a.sin() * b).sum(-1)
    elif which == "cube":
        def f(a):
            note((a,))
            return Cube.apply(a.exp()) - a
    elif which == "three":
        def f(a, b, c):
            note((a, b, c))
            return a @ b + c.tanh()
    elif which == "const":
        def f(a):
            note((a,))
            return torch.full((2, 3), 1.5, dtype=a.dtype) + a.detach().sum()
    elif which == "const_f32_nonfinite":  # float32 (not the primals' dtype), with inf, -inf, NaN and -2.0 in it
        def f(a):
            note((a,))
            return torch.tensor([[float("inf"), float("-inf"), float("nan")], [1.5, -2.0, 0.0]], dtype=torch.float32)
    elif which == "const_meta":  # an output on another device than the primals (a stand-in for cuda)
        def f(a):
            note((a,))
            return torch.full((2, 3), 1.5, dtype=a.dtype, device="meta")
    elif which == "grad_inside":  # forward-over-reverse by hand: f differentiates its own (dual) input, which
        def f(a):                   # requires grad, with torch.autograd.grad(create_graph=True): sin(2a)
            note((a,))
            return torch.autograd.grad((a.sin() ** 2).sum(), a, create_graph=True)[0]
    elif which == "raises":  # only on a dual argument, as an op without a forward-mode formula does
        def f(a):
            note((a,))
            if fwAD.unpack_dual(a).tangent is not None or is_functorch_wrapped_tensor(a):
                raise KeyError(f"raised inside f at {float(a.detach().sum()):.9f}")
            return a * 2
    elif which == "interrupts":  # as "raises", with an exception outside Exception (as KeyboardInterrupt)
        def f(a):
            note((a,))
            if fwAD.unpack_dual(a).tangent is not None or is_functorch_wrapped_tensor(a):
                raise Interrupted(f"raised inside f at {float(a.detach().sum()):.9f}")
            return a * 2
    else:
        raise ValueError(which)
    return f


MODES = []  # per call of the judge's f: the grad mode it ran in (torch.is_grad_enabled())


class Interrupted(BaseException):
    """Raised by the judge's f "interrupts": an exception that is not an Exception, as KeyboardInterrupt (the user
    stopping a long f) and SystemExit are; `except Exception:` does not see it."""


def dual_jvp(ns, which, primals, tangents, again=True, requires_grad=False, grad_enabled=True, twice=False):
    """dual_jvp on the judge's function `which`: its results, what f saw, the grad mode each call of f ran in, the
    dual level left open, and whether a second call right after still works. With requires_grad, the primals are
    leaves that require grad (as the caller of a forward-over-reverse f hands them over), and "out_grad" is the
    gradient of the first result's sum with respect to each primal (None where none reaches it), or why there is
    none. The call runs in the grad mode grad_enabled (as a caller under torch.no_grad() when False);
    "out_requires_grad" tells whether the first result requires grad. With twice, the caller then adds 1 in place
    to the second result (as a caller accumulating J t does) and calls dual_jvp again on the same arguments: that
    call's second result is sent as "jvp2" (or why there is none as "error2")."""
    fn = get(ns, "dual_jvp")
    if requires_grad:
        primals = [p.detach().clone().requires_grad_(True) for p in primals]
    seen = []
    CALLS.clear()
    MODES.clear()
    res = {}
    try:
        with torch.set_grad_enabled(grad_enabled):
            out = fn(_jvp_fn(which, seen), tuple(primals), tuple(tangents))
        if isinstance(out, (tuple, list)) and len(out) == 2 and isinstance(out[0], torch.Tensor):
            res["out_requires_grad"] = out[0].requires_grad
            if requires_grad and grad_enabled:
                if out[0].grad_fn is None:
                    res["out_grad"] = "the first result has no autograd history (grad_fn is None)"
                else:
                    try:
                        gs = torch.autograd.grad(out[0].sum(), primals, allow_unused=True)
                        res["out_grad"] = [None if gi is None else gi.detach().clone() for gi in gs]
                    except Exception as exc:  # noqa: BLE001
                        res["out_grad"] = _error(exc)
        if isinstance(out, (tuple, list)) and len(out) == 2 and all(isinstance(o, torch.Tensor) for o in out):
            res["devices"] = [str(o.device) for o in out]
            res["dtypes"] = [o.dtype for o in out]
            # a meta tensor has no values to send: its shape and dtype stand for it
            res["out"], res["jvp"] = ((tuple(o.shape), o.dtype) if o.is_meta else o.detach().clone() for o in out)
        else:
            res["error"] = f"returned {type(out).__name__} of length {len(out) if hasattr(out, '__len__') else '-'}"
    except (Exception, Interrupted) as exc:  # noqa: BLE001 - Interrupted: the judge's own, from "interrupts" only
        res["error"] = _error(exc)
        res["raised"] = type(exc).__name__
        res["message"] = str(exc)[:200]
    res["level_after"] = _close_levels() if fwAD._current_level >= 0 else -1
    res["seen"] = seen
    res["grad_modes"] = list(MODES)
    res["calls"] = sorted(set(CALLS))
    if twice and "error" not in res:
        try:
            with torch.no_grad():
                out[1].add_(1)
        except Exception:  # noqa: BLE001 - a result the caller cannot write into is not this probe's business
            pass
        try:
            with torch.set_grad_enabled(grad_enabled):
                out2 = fn(_jvp_fn(which, []), tuple(primals), tuple(tangents))
            res["jvp2"] = out2[1].detach().clone()
        except Exception as exc:  # noqa: BLE001
            res["error2"] = _error(exc)
        _close_levels()
    if again:
        try:
            one = torch.ones(1, dtype=torch.float64)
            fn(_jvp_fn("sin_prod", []), (one, one), (one, one))
            res["again"] = "ok"
        except Exception as exc:  # noqa: BLE001
            res["again"] = _error(exc)
        _close_levels()
    return res


# ------------------------------------------------------------------ exercises 3 and 4: jacobian, hvp
def _transforms():
    """The torch.func transforms open over the current code, by name (jacfwd: Jvp and Vmap; jacrev: Grad)."""
    from torch._functorch.pyfunctorch import retrieve_all_functorch_interpreters
    return sorted(str(i.key()).split(".")[-1] for i in retrieve_all_functorch_interpreters())


def _mlp(W, b, out_shape, ran=None, at=None):
    """f(x) = cube(tanh(W x + b)) reshaped, plus 0.5 sum(x); with ran, each call notes the transforms open over it;
    with at = [x0, ...], each call outside every transform (the size probe) notes whether its input is x0 itself:
    the same shape, dtype, device and values."""
    def f(x):
        if ran is not None:
            ran.append(_transforms())
        if at is not None and not _transforms():
            x0 = at[0]
            at.append(isinstance(x, torch.Tensor) and x.shape == x0.shape and x.dtype == x0.dtype
                      and x.device == x0.device and not x.is_meta and torch.equal(x.detach(), x0))
        return Cube.apply(torch.tanh(W @ x.reshape(-1) + b)).reshape(out_shape) + x.sum() * 0.5
    return f


def _outer(c, ran):
    """f(x) = cube(tanh(c * outer(x, x))) + 0.5 sum(x) for x flattened: n * n outputs for x of n elements (one f
    whose output grows faster than its input: a tie for one element, tall for more)."""
    def f(x):
        ran.append(_transforms())
        v = x.reshape(-1)
        return Cube.apply(torch.tanh(torch.outer(v, v) * c)) + x.sum() * 0.5
    return f


def jacobian(ns, x, W, b, out_shape, grad_enabled=True):
    """jacobian(f, x) for f(x) = cube(tanh(W x + b)) reshaped, plus 0.5 sum(x), called with grad mode on or off;
    which of Cube's formulas ran, and the global settings (probelib.global_state) before and after the call (grad
    mode is put back after, for the probes that follow); "probe_on_x": per call of f outside torch.func's transforms
    (the size probe), whether it got x itself (the same shape, dtype, device and values)."""
    CALLS.clear()
    ran = []
    at = [x.detach().clone()]
    prev = torch.is_grad_enabled()
    torch.set_grad_enabled(grad_enabled)
    state = {"before": global_state()}
    try:
        out = get(ns, "jacobian")(_mlp(W, b, tuple(out_shape), ran, at), x)
        res = {"out": out.detach().clone() if isinstance(out, torch.Tensor) else f"<{type(out).__name__}>"}
    except Exception as exc:  # noqa: BLE001
        res = {"error": _error(exc)}
    state["after"] = global_state()
    torch.set_grad_enabled(prev)
    res.update(state)
    res["calls"] = sorted(set(CALLS))
    res["f_calls"] = len(ran)
    res["transforms"] = ran
    res["probe_on_x"] = at[1:]
    _close_levels()
    return res


def jacobian_same_f(ns, xs, c):
    """jacobian(f, x) with ONE f object (_outer(c)) for each x of xs in turn: per call, its result, which of Cube's
    formulas ran and the transforms each call of f ran under."""
    ran = []
    f = _outer(c, ran)
    results = []
    for x in xs:
        CALLS.clear()
        ran.clear()
        try:
            out = get(ns, "jacobian")(f, x)
            r = {"out": out.detach().clone() if isinstance(out, torch.Tensor) else f"<{type(out).__name__}>"}
        except Exception as exc:  # noqa: BLE001
            r = {"error": _error(exc)}
        r.update(calls=sorted(set(CALLS)), f_calls=len(ran))
        results.append(r)
        _close_levels()
    return results


def jacobian_raises(ns, x, grad_enabled=True, interrupt=False):
    """jacobian(f, x) for an f that raises KeyError (on every call, the size probe's included), or with interrupt
    Interrupted (a BaseException that is not an Exception, as KeyboardInterrupt), called in grad mode grad_enabled:
    what reached the caller, and the global settings before and after (grad mode put back after)."""
    def f(x):
        if interrupt:
            raise Interrupted("raised inside the judge's f")
        raise KeyError("raised inside the judge's f")
    prev = torch.is_grad_enabled()
    torch.set_grad_enabled(grad_enabled)
    res = {"before": global_state()}
    try:
        get(ns, "jacobian")(f, x)
        res["raised"] = None
    except (Exception, Interrupted) as exc:  # noqa: BLE001 - Interrupted: the judge's own, with interrupt only
        res["raised"] = type(exc).__name__
    res["after"] = global_state()
    torch.set_grad_enabled(prev)
    _close_levels()
    return res


def jacobian_devices(ns, cases):
    """jacobian(f, x) for each (x, W, b, out_shape) of cases, with x, W and b off the default device
    (probelib.off_default_device): per case, the result's device relative to the inputs', its shape and dtype."""
    results = []
    for x, W, b, out_shape in cases:
        try:
            out, home = off_default_device(lambda x, W, b: get(ns, "jacobian")(_mlp(W, b, tuple(out_shape)), x),
                                           (x, W, b))
            results.append({"device": relative_device(out, home), "shape": tuple(out.shape), "dtype": out.dtype}
                           if isinstance(out, torch.Tensor) else {"error": f"returned {type(out).__name__}"})
        except Exception as exc:  # noqa: BLE001
            results.append({"error": _error(exc)})
        _close_levels()
    return results


def _energy(A, c):
    def f(x):
        z = A @ x.reshape(-1)
        return (Cube.apply(torch.sin(z)) * c).sum() + (x * x).sum() * 0.25
    return f


def _linear(A, c):
    """f(x) = <c, A x>: linear in x, its gradient A^T c the same everywhere (H = 0, and grad(f) carries no tangent)."""
    def f(x):
        return ((A @ x.reshape(-1)) * c).sum()
    return f


def hvp(ns, x, v, A, c, linear=False):
    """hvp(f, x, v) for f(x) = sum(c * sin(A x) ** 3) + 0.25 |x|^2 (with linear, f(x) = <c, A x>); Cube's formulas
    that ran, whether its backward ran under forward mode, and the largest tensor."""
    CALLS.clear()
    BACKWARD_UNDER_JVP.clear()
    try:
        with _OpLog() as log:
            out = get(ns, "hvp")((_linear if linear else _energy)(A, c), x, v)
        res = {"out": out.detach().clone() if isinstance(out, torch.Tensor) else f"<{type(out).__name__}>",
               "largest": log.largest, "foreign": sorted(n for n in log.names if "::" in n)}
    except Exception as exc:  # noqa: BLE001
        res = {"error": _error(exc)}
    res["calls"] = sorted(set(CALLS))
    res["backward_under_jvp"] = any(BACKWARD_UNDER_JVP)
    _close_levels()
    return res


def hvp_devices(ns, x, vs, A, c):
    """hvp(f, x, v) for each v of vs with x, v, A and c off the default device (probelib.off_default_device: meta,
    or the CPU with meta the default where the code needs values): per v, the result's device relative to the
    inputs', its shape and dtype, and its values where it has any."""
    results = []
    for v in vs:
        try:
            out, home = off_default_device(lambda x, v, A, c: get(ns, "hvp")(_energy(A, c), x, v), (x, v, A, c))
            if not isinstance(out, torch.Tensor):
                results.append({"error": f"returned {type(out).__name__}, not a tensor"})
                continue
            results.append({"device": relative_device(out, home), "home": home, "shape": tuple(out.shape),
                            "dtype": out.dtype, "out": None if out.is_meta else out.detach().clone()})
        except Exception as exc:  # noqa: BLE001
            results.append({"error": _error(exc)})
        _close_levels()
    return results


# ------------------------------------------------------------------ exercise 5: per_sample_grads
def batch_rows_loss(out, y):
    """A loss written for a batch: each example's squared error summed over every dimension but the first, then the
    mean over the batch (it needs out and y with their batch dimension)."""
    return (out - y).pow(2).flatten(1).sum(1).mean()


LOSSES = {"mse": F.mse_loss, "ce": F.cross_entropy, "rows": batch_rows_loss,
          "soft_ce": F.cross_entropy}  # soft_ce: y of class probabilities (N, C), read along its batch dimension


def _state(model):
    return {"params": {k: p.detach().clone() for k, p in model.named_parameters()},
            "buffers": {k: b.detach().clone() for k, b in model.named_buffers()},
            "grads": {k: p.grad.detach().clone() for k, p in model.named_parameters() if p.grad is not None},
            "training": sorted(k for k, m in model.named_modules() if m.training),
            "frozen": sorted(k for k, p in model.named_parameters() if not p.requires_grad)}


def embedding_model(spec):
    """A model of token ids: nn.Embedding, flattened, then nn.Linear, with weights from spec's seed (float32); with
    spec["tied"], nn.Embedding then an nn.Linear back to the vocabulary that shares the embedding's weight (one
    parameter under two module names, named_parameters() lists it once), flattened."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(spec["seed"])
        if spec.get("tied"):
            emb, head = torch.nn.Embedding(spec["vocab"], spec["dim"]), torch.nn.Linear(spec["dim"], spec["vocab"])
            head.weight = emb.weight
            return torch.nn.Sequential(emb, head, torch.nn.Flatten())
        return torch.nn.Sequential(torch.nn.Embedding(spec["vocab"], spec["dim"]), torch.nn.Flatten(),
                                   torch.nn.Linear(spec["dim"] * spec["len"], spec["out"]))


def step(model):
    """An optimizer step's stand-in, in place: every parameter p becomes 0.125 - p / 2 and every floating buffer
    b becomes 1.5 b (the objects stay the same)."""
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(-0.5).add_(0.125)
        for b in model.buffers():
            if b.is_floating_point():
                b.mul_(1.5)


def _grads_dict(out):
    if not isinstance(out, dict):
        return {"error": f"returned {type(out).__name__}, not a dict"}
    return {"out": {str(k): (v.detach().clone() if isinstance(v, torch.Tensor) else f"<{type(v).__name__}>")
                    for k, v in out.items()}}


def per_sample(ns, spec, x, y, loss, frozen=(), train=False, grads=False, then_frozen=None, then_loss=None):
    """per_sample_grads on the judge's model (probelib.build_model(spec) in float64, eval mode unless train, the
    named parameters frozen, with grads a .grad on every other parameter): its result, how often the model ran,
    and the model's state before and after. With then_frozen, the same model is then stepped in place (step) and
    frozen anew (exactly the parameters named in then_frozen), and the result of a second call (with the loss
    then_loss, if given, in place of loss) is sent as "out2" (or "error2"); with then_loss, a third call follows
    on the model as the second found it, with loss again, sent as "out3" (or "error3")."""
    model = (embedding_model(spec) if spec.get("vocab") else build_model(spec)).double()
    model.train(train)
    for name, p in model.named_parameters():
        if name in frozen:
            p.requires_grad_(False)
    calls = []
    model.register_forward_pre_hook(lambda m, a: calls.append(1))
    if grads:  # every other parameter gets a .grad of its own (drawn from the spec's seed), the rest none
        g = torch.Generator().manual_seed(spec["seed"])
        for i, (_, p) in enumerate(model.named_parameters()):
            if i % 2 == 0:
                p.grad = torch.randn(p.shape, generator=g, dtype=p.dtype)
    loss_fn = LOSSES[loss]
    before = _state(model)
    try:
        res = _grads_dict(get(ns, "per_sample_grads")(model, loss_fn, x, y))
    except Exception as exc:  # noqa: BLE001
        res = {"error": _error(exc)}
    res.update(calls=len(calls), before=before, after=_state(model))
    if then_frozen is not None and "error" not in res:
        step(model)
        for name, p in model.named_parameters():
            p.requires_grad_(name not in then_frozen)
        try:
            second = _grads_dict(get(ns, "per_sample_grads")(model, LOSSES[then_loss or loss], x, y))
            res.update({k + "2": v for k, v in second.items()})
        except Exception as exc:  # noqa: BLE001
            res["error2"] = _error(exc)
        if then_loss is not None:
            try:
                third = _grads_dict(get(ns, "per_sample_grads")(model, loss_fn, x, y))
                res.update({k + "3": v for k, v in third.items()})
            except Exception as exc:  # noqa: BLE001
                res["error3"] = _error(exc)
    return res


# ------------------------------------------------------------------ exercise 6: ensemble_forward
ACTIVATIONS = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}


def act_model(spec):
    """nn.Sequential(nn.Linear(in, hidden), nn.BatchNorm1d(hidden), the activation spec["act"], nn.Linear(hidden,
    out)) with weights from spec's seed and BatchNorm running statistics drawn as build_model draws them (float32):
    models of one class and one set of parameter and buffer names and shapes whatever their activation."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(spec["seed"])
        model = torch.nn.Sequential(torch.nn.Linear(spec["in"], spec["hidden"]), torch.nn.BatchNorm1d(spec["hidden"]),
                                    ACTIVATIONS[spec["act"]](), torch.nn.Linear(spec["hidden"], spec["out"]))
        with torch.no_grad():
            model[1].running_mean.normal_(0, 0.5)
            model[1].running_var.uniform_(0.5, 2.0)
    return model


class Scaled(torch.nn.Module):
    """Linear(in, hidden), Tanh, Linear(hidden, out), times a buffer registered with persistent=False (as a rotary
    table or a fixed mask is): named_buffers() lists it, state_dict() does not."""

    def __init__(self, spec):
        super().__init__()
        self.lin1 = torch.nn.Linear(spec["in"], spec["hidden"])
        self.lin2 = torch.nn.Linear(spec["hidden"], spec["out"])
        self.register_buffer("scale", torch.rand(spec["out"]) * 1.5 + 0.25, persistent=False)

    def forward(self, x):
        return self.lin2(torch.tanh(self.lin1(x))) * self.scale


def scaled_model(spec):
    """Scaled(spec) with weights and its non-persistent buffer from spec's seed (float32)."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(spec["seed"])
        return Scaled(spec)


def _member(spec):
    """probelib.build_model(spec), or with spec["single"] a bias-free nn.Linear (one parameter), or with
    spec["vocab"] embedding_model(spec) (a model of integer token ids), or with spec["act"] act_model(spec), or with
    spec["scaled"] scaled_model(spec) (a buffer outside the state dict), float64,
    eval, the parameters named in spec["frozen"] (if any) frozen."""
    model = _unfrozen_member(spec)
    for name, p in model.named_parameters():
        if name in spec.get("frozen", ()):
            p.requires_grad_(False)
    return model


def _unfrozen_member(spec):
    if spec.get("vocab"):
        return embedding_model(spec).double().eval()
    if spec.get("act"):
        return act_model(spec).double().eval()
    if spec.get("scaled"):
        return scaled_model(spec).double().eval()
    if not spec.get("single"):
        return build_model(spec).double().eval()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(spec["seed"])
        return torch.nn.Linear(spec["in"], spec["out"], bias=False).double().eval()


def ensemble(ns, specs, x, per_model=False, w=None, again=False, then_specs=None, grad_enabled=True):
    """ensemble_forward on the judge's models (probelib.build_model of each spec, float64, eval): its result, how
    often any module's forward ran (hooks on every module; a deep copy keeps them) and in which grad modes
    ("grad_modes": torch.is_grad_enabled() at those calls, each value once), and the models' state; with w,
    x requires grad and the result's gradient <w, result> with respect to x is sent too (or why there is none).
    With again, every model is then stepped in place (step) and the result of a second call on the same list is
    sent as "out2" (or "error2"). With then_specs, a last call runs other models (built from then_specs) on the
    same x, sent as "out3" (or "error3"). The first call runs in grad mode grad_enabled (as a caller under
    torch.no_grad() when False); "out_requires_grad" tells whether its result requires grad."""
    models = [_member(s) for s in specs]
    calls = []
    for m in models:
        m.register_forward_pre_hook(lambda mod, a: calls.append(torch.is_grad_enabled()))
    before = [_state(m) for m in models]
    try:
        if w is not None:
            x = x.detach().clone().requires_grad_(True)
        with torch.set_grad_enabled(grad_enabled):
            out = get(ns, "ensemble_forward")(models, x, per_model=per_model)
        res = {"out": out.detach().clone() if isinstance(out, torch.Tensor) else f"<{type(out).__name__}>"}
        if isinstance(out, torch.Tensor):
            res["out_requires_grad"] = out.requires_grad
        if w is not None and isinstance(out, torch.Tensor):
            if out.grad_fn is None:
                res["x_grad"] = "the result has no autograd history (grad_fn is None)"
            else:
                try:
                    (gx,) = torch.autograd.grad((out * w).sum(), x, allow_unused=True)
                    res["x_grad"] = gx.detach().clone() if gx is not None else "no gradient reaches x"
                except Exception as exc:  # noqa: BLE001
                    res["x_grad"] = _error(exc)
    except Exception as exc:  # noqa: BLE001
        res = {"error": _error(exc)}
    res.update(calls=len(calls), grad_modes=sorted(set(calls)), before=before, after=[_state(m) for m in models])
    if again and "error" not in res:
        for m in models:
            step(m)
        try:
            out = get(ns, "ensemble_forward")(models, x, per_model=per_model)
            res["out2"] = out.detach().clone() if isinstance(out, torch.Tensor) else f"<{type(out).__name__}>"
        except Exception as exc:  # noqa: BLE001
            res["error2"] = _error(exc)
    if then_specs is not None and "error" not in res:
        try:
            out = get(ns, "ensemble_forward")([_member(s) for s in then_specs], x.detach(), per_model=per_model)
            res["out3"] = out.detach().clone() if isinstance(out, torch.Tensor) else f"<{type(out).__name__}>"
        except Exception as exc:  # noqa: BLE001
            res["error3"] = _error(exc)
    return res
