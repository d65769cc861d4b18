"""Probes for 15-01: run next to the submission, return plain data only."""
import torch
import torch.nn as nn
from torch.utils._python_dispatch import TorchDispatchMode

from course.judge.probelib import (capture_error, directional, get, needs_values, relative_device, stand_in_device,
                                   vjp)
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)


def _fn(ns, name, extra):
    cls = get(ns, name)
    return lambda *xs: cls.apply(*xs, *extra)


# ---------------------------------------------------------------- Functions
def function_vjp(ns, name, inputs, v, extra=()):
    """Output and input gradients of <v, name.apply(*inputs, *extra)>."""
    return vjp(_fn(ns, name, extra), inputs, v)


def function_directional(ns, name, inputs, dirs, eps, order, seed, extra=()):
    return directional(_fn(ns, name, extra), inputs, dirs, eps, order, seed)


def raw_backward(ns, name, inputs, grad, extra=()):
    """What backward itself returns (through grad_fn.apply), before autograd checks it."""
    xs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    out = get(ns, name).apply(*xs, *extra)
    if out.grad_fn is None:
        return {"n": -1, "grads": [], "saved": 0}
    res = out.grad_fn.apply(grad)
    res = res if isinstance(res, tuple) else (res,)
    try:
        saved = len(out.grad_fn.saved_tensors)
    except RuntimeError:
        saved = -1
    return {"n": len(res), "grads": [r if isinstance(r, torch.Tensor) or r is None else repr(r) for r in res],
            "saved": saved}


# A value no computation of ScaledMul's gradients makes from random inputs: the input that alone requires grad
# holds it, so an op given it reads a value that only the other input's gradient (grad_out * x * alpha) needs.
_POISON = -7.0 + 2.0 ** -20
# Ops that read no values of what they are given (views, sizes, empty tensors shaped like it).
_NO_VALUES = {"view", "_unsafe_view", "expand", "as_strided", "t", "transpose", "permute", "unsqueeze", "squeeze",
              "select", "slice", "detach", "alias", "_reshape_alias", "empty_like", "new_empty", "new_empty_strided",
              "sym_size", "sym_stride", "sym_numel", "sym_storage_offset", "lift_fresh"}


class _OpCount(TorchDispatchMode):
    """Counts the aten operations that run while it is active, and names those given a floating-point tensor that
    holds _POISON (reading the values of the input that alone requires grad)."""

    def __init__(self):
        super().__init__()
        self.n = 0
        self.read: list[str] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.n += 1
        name = str(func.overloadpacket.__name__)
        if name not in _NO_VALUES and not self.read:
            flat = list(args) + list((kwargs or {}).values())
            flat += [t for a in flat if isinstance(a, (list, tuple)) for t in a]
            for t in flat:
                if (isinstance(t, torch.Tensor) and t.is_floating_point() and t.device.type == "cpu"
                        and t.numel() and bool((t == _POISON).any())):
                    self.read.append(name)
                    break
        return func(*args, **(kwargs or {}))


def backward_op_counts(ns, name, inputs, grad, extra=()):
    """How many aten operations backward runs (called through grad_fn.apply) for each pattern of
    requires_grad over the tensor inputs: {"11": n, "10": n, "01": n}, and under "read10" and "read01" the first op
    that read the values of the one input that requires grad, there filled with _POISON: of ScaledMul's two
    gradients, only the other input's (not asked for) needs them ("" when none did)."""
    counts = {}
    for needs in ((True, True), (True, False), (False, True)):
        xs = [x.detach().clone().requires_grad_(r) for x, r in zip(inputs, needs)]
        if not all(needs):
            with torch.no_grad():
                xs[needs.index(True)].fill_(_POISON)
        out = get(ns, name).apply(*xs, *extra)
        if out.grad_fn is None:
            raise TypeError(f"{name}.apply returned a tensor with no grad_fn")
        with _OpCount() as c:
            out.grad_fn.apply(grad)
        key = "".join("1" if r else "0" for r in needs)
        counts[key] = c.n
        if not all(needs):
            counts["read" + key] = c.read[0] if c.read else ""
    return counts


def second_derivative(ns, name, x, extra=()):
    """d/dx of the gradient of name.apply(x).sum() (create_graph=True, then autograd.grad again)."""
    x = x.detach().clone().requires_grad_(True)
    out = get(ns, name).apply(x, *extra)
    (g,) = torch.autograd.grad(out.sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    return {"grad": g.detach(), "second": h}


def outputs_in_turn(ns, name, xs, extra=()):
    """name.apply(x, *extra) for each x in xs, one call after the other in the same process (no grad needed):
    each output, detached. Whatever a Function keeps between calls shows here."""
    outs = []
    for x in xs:
        out = get(ns, name).apply(x.detach().clone(), *extra)
        if not isinstance(out, torch.Tensor):
            raise TypeError(f"expected {name}.apply to return a tensor, got {type(out).__name__}")
        outs.append(out.detach())
    return outs


def apply_then_inputs(ns, name, inputs, extra=()):
    """The inputs as they are after ``name.apply(*inputs, *extra)`` (a forward must not change them)."""
    xs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    get(ns, name).apply(*xs, *extra)
    return [x.detach() for x in xs]


def apply_shares_input(ns, name, inputs, extra=()):
    """Whether ``name.apply(*inputs, *extra)`` returns a tensor in the memory of one of its inputs."""
    xs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    out = get(ns, name).apply(*xs, *extra)
    if not isinstance(out, torch.Tensor):
        raise TypeError(f"expected {name}.apply to return a tensor, got {type(out).__name__}")
    mem = out.untyped_storage().data_ptr()
    return any(x.untyped_storage().data_ptr() == mem for x in xs)


def modify_saved_then_backward(ns, name, inputs, extra=(), which=None):
    """Change the inputs in place after forward (only those at the indices in ``which``, if given); backward
    should notice (save_for_backward)."""
    xs = [x.detach().clone().requires_grad_(True) for x in inputs]
    leaves = [x * 1 for x in xs]  # non-leaf copies, so in-place changes are allowed
    out = get(ns, name).apply(*leaves, *extra)
    for i, t in enumerate(leaves):
        if which is None or i in which:
            t.add_(1.0)
    return capture_error(lambda: out.sum().backward())


def modify_input_then_vjp(ns, name, inputs, v, extra=()):
    """Change each input in place (+ 1.0) between forward and backward, then the gradients of <v, out> with respect
    to the leaves the inputs were copied from: how backward raised (save_for_backward version-checks what it
    keeps), or the gradients it returned instead."""
    xs = [x.detach().clone().requires_grad_(True) for x in inputs]
    leaves = [x * 1 for x in xs]  # non-leaf copies, so in-place changes are allowed
    out = get(ns, name).apply(*leaves, *extra)
    with torch.no_grad():
        for t in leaves:
            t.add_(1.0)
    got = []
    err = capture_error(lambda: got.extend(torch.autograd.grad(out, xs, v.to(out.dtype), allow_unused=True)))
    return {"error": err, "grads": None if err["raised"] else got}


def two_nodes_vjp(ns, name, first, second, v):
    """Two nodes of name.apply built one after the other (first = (inputs, extra), second likewise), then one
    backward through both: <v[0], out0> + <v[1], out1>. Each node's outputs and its inputs' gradients."""
    nodes = []
    for inputs, extra in (first, second):
        xs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
        nodes.append((xs, get(ns, name).apply(*xs, *extra)))
    loss = sum((out * w.to(out.dtype)).sum() for (_, out), w in zip(nodes, v))
    leaves = [x for xs, _ in nodes for x in xs]
    grads = iter(torch.autograd.grad(loss, leaves, allow_unused=True))
    return [{"out": out.detach(), "grads": [next(grads) for _ in xs]} for xs, out in nodes]


def double_backward(ns, name, x, extra=()):
    x = x.detach().clone().requires_grad_(True)
    out = get(ns, name).apply(x, *extra)

    def go():
        # A non-linear outer loss, so the incoming gradient itself depends on x.
        (g,) = torch.autograd.grad((out ** 2).sum(), x, create_graph=True)
        g.sum().backward()
    return capture_error(go)


def apply_under_default_dtypes(ns, name, inputs, extra, dtype_names):
    """name.apply(*inputs, *extra) once under each torch.set_default_dtype(d) of dtype_names (restored after)."""
    outs = []
    old = torch.get_default_dtype()
    try:
        for d in dtype_names:
            torch.set_default_dtype(getattr(torch, d))
            out = get(ns, name).apply(*[x.clone() for x in inputs], *extra)
            outs.append(out.detach() if isinstance(out, torch.Tensor) else repr(out))
    finally:
        torch.set_default_dtype(old)
    return outs


def single_backward(ns, name, x, extra=()):
    x = x.detach().clone().requires_grad_(True)
    out = get(ns, name).apply(x, *extra)
    (g,) = torch.autograd.grad(out.sum(), x)
    return {"out": out.detach(), "grad": g}


# ---------------------------------------------------------------- hooks
def make_net(seed: int) -> nn.Module:
    torch.manual_seed(seed)
    return nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Sequential(nn.Conv2d(4, 6, 3, padding=1), nn.Tanh()),
                         nn.Flatten(), nn.Linear(6 * 4 * 4, 5))


def _hook_counts(model):
    return sum(len(m._forward_hooks) + len(m._forward_pre_hooks) for m in model.modules())


def capture(ns, state, names, x, dtype_name="float32"):
    model = make_net(0)
    model.load_state_dict(state)
    model.to(getattr(torch, dtype_name)).eval()
    x = x.to(getattr(torch, dtype_name))
    with torch.no_grad():
        plain = model(x)
    runs = [0]
    real_forward = model.forward

    def counted(*a, **k):
        runs[0] += 1
        return real_forward(*a, **k)
    model.forward = counted
    given = list(names)
    acts = get(ns, "capture_activations")(model, given, x)
    del model.forward
    with torch.no_grad():
        after = model(x)
    if not isinstance(acts, dict):
        raise TypeError(f"capture_activations should return a dict, got {type(acts).__name__}")
    return {"acts": {str(k): v for k, v in acts.items()}, "names_after": [str(n) for n in given],
            "requires_grad": {str(k): bool(getattr(v, "requires_grad", False)) for k, v in acts.items()},
            "hooks_left": _hook_counts(model), "plain": plain, "after": after, "forward_runs": runs[0]}


def capture_then_autograd(ns, state, names, x):
    """capture_activations on the probe's net (eval mode), then, for each returned activation a, the caller's use
    of it in autograd: (a * w).sum().backward() for a leaf w of a's shape that requires grad. Per name: how that
    raised, whether a is an inference tensor, and w.grad."""
    model = make_net(0)
    model.load_state_dict(state)
    model.eval()
    acts = get(ns, "capture_activations")(model, list(names), x)
    if not isinstance(acts, dict):
        raise TypeError(f"capture_activations should return a dict, got {type(acts).__name__}")
    res = {}
    for k, a in acts.items():
        if not isinstance(a, torch.Tensor):
            raise TypeError(f"capture_activations returned a {type(a).__name__} for {k!r}, not a tensor")
        w = torch.zeros(a.shape, dtype=a.dtype).requires_grad_(True)
        err = capture_error(lambda: (a * w).sum().backward())
        res[str(k)] = {"error": err, "inference": bool(torch.is_inference(a)), "w_grad": w.grad}
    return res


def capture_twice(ns, states, names, xs, swap=None):
    """capture_activations on two models one after the other (states, names and xs hold one entry per call),
    every returned dict kept: what each holds after both calls; with swap = (name, nn class name), then once more
    on the second model after its submodule `name` is replaced by a new module of that class."""
    got = []
    for state, nm, x in zip(states, names, xs):
        model = make_net(0)
        model.load_state_dict(state)
        model.eval()
        acts = get(ns, "capture_activations")(model, list(nm), x)
        if not isinstance(acts, dict):
            raise TypeError(f"capture_activations should return a dict, got {type(acts).__name__}")
        got.append(acts)
    if swap is not None:  # the last model again, one submodule replaced in between
        name, kind = swap
        model.get_submodule(name.rpartition(".")[0]).add_module(name.rpartition(".")[2], getattr(nn, kind)())
        acts = get(ns, "capture_activations")(model, list(names[-1]), xs[-1])
        if not isinstance(acts, dict):
            raise TypeError(f"capture_activations should return a dict, got {type(acts).__name__}")
        got.append(acts)
    return [{str(k): v for k, v in acts.items()} for acts in got]


def capture_among_hooks(ns, state, names, x):
    """capture_activations on a model that already carries hooks of the caller's (a forward hook and a forward
    pre-hook on a few submodules): which of those are still registered afterwards, and still called."""
    model = make_net(0)
    model.load_state_dict(state)
    model.eval()
    calls = []
    theirs = {}
    for n, m in model.named_modules():
        if n in ("0", "3", "3.1", "5"):
            theirs[n] = (m.register_forward_hook(lambda m, i, o, n=n: calls.append(n)),
                         m.register_forward_pre_hook(lambda m, i, n=n: calls.append(n)))
    get(ns, "capture_activations")(model, list(names), x)
    mods = dict(model.named_modules())
    kept = {n: [h.id in mods[n]._forward_hooks, p.id in mods[n]._forward_pre_hooks] for n, (h, p) in theirs.items()}
    calls.clear()
    with torch.no_grad():
        model(x)
    called = sorted(set(calls))
    for h, p in theirs.values():
        h.remove()
        p.remove()
    return {"kept": kept, "called": called, "hooks_left": _hook_counts(model)}


def make_bn_net(seed: int) -> nn.Module:
    """A small net with BatchNorm2d (batch statistics in training mode) and a nested block."""
    torch.manual_seed(seed)
    return nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
                         nn.Sequential(nn.Conv2d(4, 3, 3, padding=1), nn.BatchNorm2d(3)),
                         nn.Flatten(), nn.Linear(3 * 8 * 8, 5))


def capture_train(ns, state, names, x, eval_modules=()):
    """capture_activations on a BatchNorm net left in training mode (but for the submodules named in
    eval_modules, put in eval mode after it): what it returned, and each module's training flag afterwards."""
    model = make_bn_net(0)
    model.load_state_dict(state)
    model.train()
    mods = dict(model.named_modules())
    for n in eval_modules:
        mods[n].eval()
    acts = get(ns, "capture_activations")(model, list(names), x)
    if not isinstance(acts, dict):
        raise TypeError(f"capture_activations should return a dict, got {type(acts).__name__}")
    return {"acts": {str(k): v.detach() if isinstance(v, torch.Tensor) else v for k, v in acts.items()},
            "training": {n or "(the model)": m.training for n, m in model.named_modules()}}


class _Refuses(nn.Module):
    """A last layer that rejects every input with a ValueError (a model's own argument check)."""

    def forward(self, x):
        raise ValueError(f"_Refuses: this model takes no input of shape {tuple(x.shape)}")


def capture_failing(ns, state, names, late_value_error=False):
    """A forward that raises: a RuntimeError at the first layer (3 channels where the conv takes 1), or with
    late_value_error, a ValueError from an extra last layer (the hooked submodules have run by then). Hooks must
    still be removed."""
    model = make_net(0)
    model.load_state_dict(state)
    x = torch.randn(2, 3, 8, 8)
    if late_value_error:
        model.append(_Refuses())
        x = torch.randn(2, 1, 8, 8)
    err = capture_error(get(ns, "capture_activations"), model, list(names), x)
    return {"error": err, "hooks_left": _hook_counts(model)}


class _Interrupted(nn.Module):
    """A last layer whose forward is interrupted, as by Ctrl-C in a notebook: KeyboardInterrupt is a BaseException,
    not an Exception."""

    def forward(self, x):
        raise KeyboardInterrupt("_Interrupted: the forward pass was stopped (as by Ctrl-C)")


def capture_interrupted(ns, state, names):
    """A forward interrupted by KeyboardInterrupt in an extra last layer, after the hooked submodules have run: how
    capture_activations raised (only this probe's own KeyboardInterrupt is caught here) and the hooks left."""
    model = make_net(0)
    model.load_state_dict(state)
    model.append(_Interrupted())
    err = {"raised": False, "type": "", "message": "", "mro": []}
    try:
        get(ns, "capture_activations")(model, list(names), torch.randn(2, 1, 8, 8))
    except KeyboardInterrupt as exc:
        if "_Interrupted" not in str(exc):
            raise  # a real interrupt, not the model's
        err = {"raised": True, "type": type(exc).__name__, "message": str(exc)[:500],
               "mro": [c.__name__ for c in type(exc).__mro__]}
    except Exception as exc:
        err = {"raised": True, "type": type(exc).__name__, "message": str(exc)[:500],
               "mro": [c.__name__ for c in type(exc).__mro__]}
    return {"error": err, "hooks_left": _hook_counts(model)}


def make_outer_conv(seed: int) -> nn.Module:
    """The first layer of capture_nested's outer model: one 3x3 convolution, 1 channel in and out."""
    torch.manual_seed(seed)
    return nn.Conv2d(1, 1, 3, padding=1)


class _Tap(nn.Module):
    """A layer whose forward itself calls capture_activations on an inner model (as a feature extractor or a
    perceptual loss inside a model does), keeps what that call returned, and passes its input on unchanged."""

    def __init__(self, inner, names, fn):
        super().__init__()
        self.inner = inner
        self.names = names
        self.fn = fn
        self.got = None

    def forward(self, x):
        self.got = self.fn(self.inner, list(self.names), x)
        return x


def capture_nested(ns, state, outer_seed, names, inner_names, x):
    """capture_activations(outer, names, x) where outer = Sequential(conv, tap, Tanh) and the tap's forward calls
    capture_activations(inner, inner_names, conv(x)) on the probe's net (from ``state``) while the outer call runs:
    what each call returned."""
    inner = make_net(0)
    inner.load_state_dict(state)
    inner.eval()
    fn = get(ns, "capture_activations")
    tap = _Tap(inner, inner_names, fn)
    outer = nn.Sequential(make_outer_conv(outer_seed), tap, nn.Tanh()).eval()
    acts = fn(outer, list(names), x)
    if not isinstance(acts, dict) or not isinstance(tap.got, dict):
        raise TypeError(f"capture_activations should return a dict, got {type(acts).__name__} and "
                        f"{type(tap.got).__name__}")
    return {"outer": {str(k): v for k, v in acts.items()}, "inner": {str(k): v for k, v in tap.got.items()}}


def capture_unknown(ns, state, names=("0", "no_such_layer")):
    """capture_activations asked for names the model has no submodule of: how it raised, the hooks left and how
    often the model ran."""
    model = make_net(0)
    model.load_state_dict(state)
    runs = [0]
    real_forward = model.forward

    def counted(*a, **k):  # an instance attribute: nn.Module.__call__ finds it, hooks still apply
        runs[0] += 1
        return real_forward(*a, **k)
    model.forward = counted
    err = capture_error(get(ns, "capture_activations"), model, list(names), torch.randn(1, 1, 8, 8))
    return {"error": err, "hooks_left": _hook_counts(model), "forward_runs": runs[0]}


def clipped_grads(ns, state, frozen, max_norm, batches, remove_after=False, dtype_name="float32"):
    """Run backward on each batch (gradient accumulation) with the student's clipping hooks attached (the model
    and the batches in dtype_name)."""
    dtype = getattr(torch, dtype_name)
    model = nn.Sequential(nn.Linear(6, 5), nn.Tanh(), nn.Linear(5, 1))
    model.load_state_dict(state)
    model.to(dtype)
    batches = [(xb.to(dtype), scale) for xb, scale in batches]
    for name, p in model.named_parameters():
        if name in frozen:
            p.requires_grad_(False)
    seen = {}  # name -> the .grad tensor right after accumulation (recorded by a hook that runs first)
    for name, p in model.named_parameters():
        if p.requires_grad:
            p.register_post_accumulate_grad_hook(lambda t, name=name: seen.__setitem__(name, t.grad))
    handles = get(ns, "attach_grad_clipping")(model, max_norm)
    n_handles = len(handles) if isinstance(handles, (list, tuple)) else -1
    if remove_after:
        for h in handles:
            h.remove()
    for xb, scale in batches:
        (model(xb).pow(2).sum() * scale).backward()
    return {"grads": {n: p.grad for n, p in model.named_parameters()}, "n_handles": n_handles,
            "grad_ptr": {n: p.grad.data_ptr() for n, p in model.named_parameters() if p.grad is not None},
            "accumulated_ptr": {n: g.data_ptr() for n, g in seen.items()}}


def clipped_two_models(ns, state, max_norms, batches):
    """Two copies of the model, the first attached with max_norms[0], then the second with max_norms[1]; then one
    backward each: both models' gradients."""
    models = []
    for max_norm in max_norms:
        model = nn.Sequential(nn.Linear(6, 5), nn.Tanh(), nn.Linear(5, 1))
        model.load_state_dict(state)
        get(ns, "attach_grad_clipping")(model, max_norm)
        models.append(model)
    for model, (xb, scale) in zip(models, batches):
        (model(xb).pow(2).sum() * scale).backward()
    return [{n: p.grad for n, p in model.named_parameters()} for model in models]


def clipped_attached_twice(ns, state, max_norms, batches):
    """One model, attach_grad_clipping(model, max_norms[0]) and then attach_grad_clipping(model, max_norms[1]):
    the grads after one backward per batch with both calls' hooks on ("both"), and again from no gradient after the
    second call's handles are removed ("first_only")."""
    model = nn.Sequential(nn.Linear(6, 5), nn.Tanh(), nn.Linear(5, 1))
    model.load_state_dict(state)
    get(ns, "attach_grad_clipping")(model, max_norms[0])
    second = get(ns, "attach_grad_clipping")(model, max_norms[1])
    res = {}
    for key in ("both", "first_only"):
        if key == "first_only":
            for h in second:
                h.remove()
        for p in model.parameters():
            p.grad = None
        for xb, scale in batches:
            (model(xb).pow(2).sum() * scale).backward()
        res[key] = {n: p.grad for n, p in model.named_parameters()}
    return res


def clipped_given(ns, grads, max_norm):
    """One parameter per tensor in grads (same shape and dtype), the student's clipping hooks attached, and one
    backward of sum(p * g) per parameter, so that each accumulated .grad is exactly g: the grads afterwards."""
    model = nn.Module()
    model.ps = nn.ParameterList([nn.Parameter(torch.zeros_like(g)) for g in grads])
    get(ns, "attach_grad_clipping")(model, max_norm)
    sum((p * g).sum() for p, g in zip(model.ps, grads)).backward()
    return [p.grad for p in model.ps]


# ---------------------------------------------------------------- version counter
def broken(ns, x):
    """How run_broken raised, and whether the error came out of autograd's engine (a backward call)."""
    x = x.detach().clone().requires_grad_(True)
    try:
        get(ns, "run_broken")(x)
    except Exception as exc:
        tb, engine = exc.__traceback__, False
        while tb is not None:
            code = tb.tb_frame.f_code
            engine |= code.co_name == "_engine_run_backward" and code.co_filename.endswith("autograd/graph.py")
            tb = tb.tb_next
        return {"raised": True, "type": type(exc).__name__, "message": str(exc)[:500],
                "mro": [c.__name__ for c in type(exc).__mro__], "from_engine": engine}
    return {"raised": False, "type": "", "message": "", "mro": [], "from_engine": False}


def fixed(ns, x, prior=None):
    """run_fixed(x) on a fresh leaf x (x.grad set to ``prior`` first, if given, as an earlier backward would)."""
    x = x.detach().clone().requires_grad_(True)
    if prior is not None:
        x.grad = prior.detach().clone()
    accumulated = [0]  # how many times autograd accumulated into x.grad (backward, not autograd.grad)
    x.register_post_accumulate_grad_hook(lambda t: accumulated.__setitem__(0, accumulated[0] + 1))
    g = get(ns, "run_fixed")(x)
    return {"accumulated": accumulated[0], "returned": g if isinstance(g, torch.Tensor) else None, "x_grad": x.grad,
            "returned_ptr": g.data_ptr() if isinstance(g, torch.Tensor) else None,
            "x_grad_ptr": x.grad.data_ptr() if isinstance(x.grad, torch.Tensor) else None}


def capture_observed(ns, state, names, x):
    """What each module inside a Sequential received from the one before it, while capture_activations runs
    with grad mode on: hooks registered here first see each submodule's own output; a student's hook that
    returns a value replaces what the next module (or the model's caller, for the last one) gets."""
    model = make_net(0)
    model.load_state_dict(state)
    model.eval()
    mine, own, passed = [], {}, {}
    for cname, container in model.named_modules():
        if not isinstance(container, nn.Sequential):
            continue
        kids = list(container.named_children())
        for (a, ma), (_, mb) in zip(kids, kids[1:]):
            key = f"{cname}.{a}" if cname else a
            mine.append(ma.register_forward_hook(lambda m, i, o, key=key: own.__setitem__(key, o)))
            mine.append(mb.register_forward_pre_hook(lambda m, i, key=key: passed.__setitem__(key, i[0])))
    last = list(model.named_children())[-1][0]
    mine.append(model[-1].register_forward_hook(lambda m, i, o: own.__setitem__(last, o)))
    mine.append(model.register_forward_hook(lambda m, i, o: passed.__setitem__(last, o)))
    try:
        with torch.enable_grad():
            get(ns, "capture_activations")(model, list(names), x)
    finally:
        for h in mine:
            h.remove()
    changed = {}
    for n in names:
        if n not in own or n not in passed or passed[n] is own[n]:
            continue
        a, b = own[n], passed[n]
        if not isinstance(b, torch.Tensor):
            changed[n] = f"a {type(b).__name__}"
        elif b.requires_grad != a.requires_grad:
            changed[n] = f"requires_grad={b.requires_grad} where the submodule returned {a.requires_grad}"
        elif b.shape != a.shape or not torch.equal(b.detach(), a.detach()):
            changed[n] = "other values than the submodule returned"
    return {"changed": changed}


def vjp_keeps_grad_out(ns, name, inputs, v, extra=()):
    """<v, name.apply(*inputs, *extra) + w> for a second leaf w of the output's shape: autograd hands the same
    incoming gradient to both branches of the sum (and v itself to the sum's node). v afterwards, each input's
    gradient and w's gradient (which must be v)."""
    xs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    out = get(ns, name).apply(*xs, *extra)
    if not isinstance(out, torch.Tensor):
        raise TypeError(f"expected {name}.apply to return a tensor, got {type(out).__name__}")
    w = torch.zeros_like(out).requires_grad_(True)
    v = v.detach().clone().to(out.dtype)
    diff = [x for x in xs if x.requires_grad]
    got = list(torch.autograd.grad(out + w, diff + [w], v, allow_unused=True))
    it = iter(got[:-1])
    return {"v_after": v, "w_grad": got[-1], "grads": [next(it) if x.requires_grad else None for x in xs]}


def clipped_root_and_nested(ns, grads, max_norm):
    """Like clipped_given, for two parameters: one registered on the model itself (not inside any child), one
    two levels down (model.block.inner.w): the grads afterwards, in that order."""
    model = nn.Module()
    model.own = nn.Parameter(torch.zeros_like(grads[0]))
    model.block = nn.Module()
    model.block.inner = nn.Module()
    model.block.inner.w = nn.Parameter(torch.zeros_like(grads[1]))
    params = [model.own, model.block.inner.w]
    get(ns, "attach_grad_clipping")(model, max_norm)
    sum((p * g).sum() for p, g in zip(params, grads)).backward()
    return [p.grad for p in params]


# ---------------------------------------------------------------- off the default device
class _CopyOut(TorchDispatchMode):
    """A copy from the stand-in device (meta) to the CPU succeeds, as one from a GPU does (with made-up values):
    code that moves a result to the CPU (.cpu(), .to('cpu')) then hands back a CPU tensor, which the caller sees
    with relative_device, instead of failing on meta and being run again on the CPU, where .cpu() changes nothing."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if (func is torch.ops.aten._to_copy.default and isinstance(args[0], torch.Tensor)
                and args[0].device.type == "meta" and kwargs.get("device") is not None
                and torch.device(kwargs["device"]).type == "cpu"):
            return torch.zeros(args[0].shape, dtype=kwargs.get("dtype") or args[0].dtype, device="cpu")
        return func(*args, **kwargs)


class _GpuMixRule(TorchDispatchMode):
    """On stand_in_device's second run (the inputs on the CPU standing for a GPU, the default device meta standing
    for the CPU), the rule a GPU applies: an op may mix the two devices only where every tensor on the default
    device is 0-dim (a CPU scalar); a (1,)-shaped constant made without device= cannot meet a GPU tensor, not even
    a 0-dim one. Meta would otherwise let the CPU scalar through the other way round."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        flat = list(args) + list(kwargs.values())
        flat += [t for a in flat if isinstance(a, (list, tuple)) for t in a]
        tensors = [t for t in flat if isinstance(t, torch.Tensor)]
        if (any(t.device.type == "cpu" for t in tensors)
                and any(t.device.type == "meta" and t.dim() > 0 for t in tensors)):
            shapes = [f"{tuple(t.shape)} on {'the default device' if t.device.type == 'meta' else 'the inputs device'}"
                      for t in tensors]
            raise RuntimeError(f"Expected all tensors to be on the same device: {func.overloadpacket.__name__} mixes "
                               f"{', '.join(shapes)} (only a 0-dim tensor may come from another device than a GPU's)")
        return func(*args, **kwargs)


class _AnswerScalars(TorchDispatchMode):
    """On the meta run, a 0-dim meta tensor read as a Python value (bool(norm > max_norm), norm.item()) answers True
    or 1.0 instead of raising, so that code which branches on a value still runs on meta. The swapped run could not
    stand in for a GPU inside autograd hooks: backward runs them without the torch.device context, so a tensor made
    there without device= lands on the inputs' device (the CPU) and meets them without error, where on a GPU it sits
    on the CPU and does not. Values computed on meta are never compared; only where results are."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if (func is torch.ops.aten._local_scalar_dense.default and isinstance(args[0], torch.Tensor)
                and args[0].device.type == "meta"):
            return True if args[0].dtype == torch.bool else 1.0
        return func(*args, **(kwargs or {}))


def _stand_in(run, answer_scalars=False):
    """stand_in_device(run) with copies to the CPU allowed on the meta run (_CopyOut), and a GPU's device rule
    kept on the swapped run (_GpuMixRule); with answer_scalars, the meta run reads a 0-dim meta tensor's value as
    True / 1.0 (_AnswerScalars) instead of swapping."""
    def go(device):
        with _CopyOut():
            if device == "meta":
                if answer_scalars:
                    with _AnswerScalars():
                        return run(device)
                return run(device)
            with _GpuMixRule():
                return run(device)
    return stand_in_device(go)


def _where(t, home):
    return relative_device(t, home) if isinstance(t, torch.Tensor) else (None if t is None else type(t).__name__)


def function_devices(ns, name, cases, second=False):
    """For each (inputs, extra) in cases, name.apply(*inputs, *extra) with the inputs off the default device
    (probelib.stand_in_device) and the gradients of <1, out> (and, with second=True, d/dx of the gradient's sum,
    create_graph=True): where the output and the gradients are ("meta" = on the inputs' device)."""
    def run(device):
        res = []
        for inputs, extra in cases:
            xs = [x.detach().to(device).requires_grad_(x.requires_grad) for x in inputs]
            out = get(ns, name).apply(*xs, *extra)
            diff = [x for x in xs if x.requires_grad]
            grads = torch.autograd.grad(out, diff, torch.ones_like(out), allow_unused=True, create_graph=second)
            it = iter(grads)
            entry = {"out": out, "grads": [next(it) if x.requires_grad else None for x in xs]}
            if second:  # where the second derivative is (a backward that is not differentiable: checked elsewhere)
                g0 = entry["grads"][0]
                entry["second"] = (torch.autograd.grad(g0.sum(), xs[0], allow_unused=True)[0]
                                   if isinstance(g0, torch.Tensor) and g0.requires_grad else None)
            res.append(entry)
        return res
    try:
        res, home = _stand_in(run)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}", "cases": []}
    return {"error": None, "home": home,
            "cases": [{k: ([_where(g, home) for g in v] if isinstance(v, list) else _where(v, home))
                       for k, v in e.items()} for e in res]}


def capture_on_device(ns, state, names, x):
    """capture_activations on the probe's net and x off the default device (stand_in_device): where each
    returned activation is ("meta" = on the model's and x's device)."""
    def run(device):
        model = make_net(0)
        model.load_state_dict(state)
        model.to(device).eval()
        return get(ns, "capture_activations")(model, list(names), x.to(device))
    try:
        acts, home = _stand_in(run)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}", "devices": {}}
    if not isinstance(acts, dict):
        raise TypeError(f"capture_activations should return a dict, got {type(acts).__name__}")
    return {"error": None, "home": home, "devices": {str(k): _where(v, home) for k, v in acts.items()}}


def _laid_out(shape, layout, dtype, device):
    if layout == "transposed":
        return torch.zeros(tuple(reversed(shape)), dtype=dtype, device=device).t()
    t = torch.zeros(shape, dtype=dtype, device=device)
    return t.contiguous(memory_format=torch.channels_last) if layout == "channels_last" else t


def clipped_layouts(ns, grads, layouts, max_norm):
    """One parameter per tensor in grads, laid out as ``layouts`` says (autograd gives .grad the parameter's
    layout: a transposed or channels-last .grad is not contiguous), the student's clipping hooks attached, one
    backward of sum(p * g): the grads afterwards (on the CPU), and the same run with the parameters off the default
    device (probelib.stand_in_device): an error, or where each .grad is."""
    def run(device):
        model = nn.Module()
        model.ps = nn.ParameterList([nn.Parameter(_laid_out(g.shape, lay, g.dtype, device))
                                     for g, lay in zip(grads, layouts)])
        get(ns, "attach_grad_clipping")(model, max_norm)
        sum((p * g.to(device)).sum() for p, g in zip(model.ps, grads)).backward()
        return [p.grad for p in model.ps]
    values = capture_error(run, "cpu")
    got = run("cpu") if not values["raised"] else []
    try:
        off, home = _stand_in(run, answer_scalars=True)  # the hooks' `if norm > max_norm` runs on meta too
        devices = {"error": None, "where": [_where(g, home) for g in off]}
    except Exception as exc:
        devices = {"error": f"{type(exc).__name__}: {str(exc)[:300]}", "where": []}
    return {"error": values, "grads": got, "devices": devices}


def inplace_on_device(ns, x):
    """run_fixed and run_broken with x off the default device (stand_in_device): where run_fixed's result and
    x.grad are, whether it returned x.grad itself; how run_broken raised there."""
    def fixed_run(device):
        xs = x.detach().to(device).requires_grad_(True)
        g = get(ns, "run_fixed")(xs)
        return {"returned": g, "x_grad": xs.grad, "same": g is xs.grad}
    try:
        r, home = _stand_in(fixed_run)
        fixed_res = {"error": None, "returned": _where(r["returned"], home), "x_grad": _where(r["x_grad"], home),
                     "same": bool(r["same"])}
    except Exception as exc:
        fixed_res = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}

    def broken_run(device):
        try:
            get(ns, "run_broken")(x.detach().to(device).requires_grad_(True))
        except Exception as exc:
            if needs_values(exc):
                raise  # maybe right on a GPU: stand_in_device runs it again with values
            return {"raised": True, "type": type(exc).__name__, "message": str(exc)[:300],
                    "mro": [c.__name__ for c in type(exc).__mro__]}
        return {"raised": False, "type": "", "message": "", "mro": []}
    try:
        broken_res, _ = _stand_in(broken_run)
    except Exception as exc:
        broken_res = {"raised": True, "type": type(exc).__name__, "message": str(exc)[:300], "mro": []}
    return {"fixed": fixed_res, "broken": broken_res}
