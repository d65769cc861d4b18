"""Probes for 15-01: run next to the submission, return plain data only."""
import torch
import torch.nn as nn
from torch.utils._python_dispatch import TorchDispatchMode

from course.judge.probelib import capture_error, directional, get, vjp


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


class _OpCount(TorchDispatchMode):
    """Counts the aten operations that run while it is active."""

    def __init__(self):
        super().__init__()
        self.n = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.n += 1
        return func(*args, **(kwargs or {}))


def backward_op_counts(ns, name, inputs, grad, extra=()):
    """How many aten operations backward runs (called through grad_fn.apply) for each pattern of
    requires_grad over the tensor inputs: {"11": n, "10": n, "01": n}."""
    counts = {}
    for needs in ((True, True), (True, False), (False, True)):
        xs = [x.detach().clone().requires_grad_(r) for x, r in zip(inputs, needs)]
        out = get(ns, name).apply(*xs, *extra)
        if out.grad_fn is None:
            raise TypeError(f"{name}.apply returned a tensor with no grad_fn")
        with _OpCount() as c:
            out.grad_fn.apply(grad)
        counts["".join("1" if r else "0" for r in needs)] = c.n
    return counts


def second_derivative(ns, name, x, extra=()):
    """d/dx of the gradient of name.apply(x).sum() (create_graph=True, then autograd.grad again)."""
    x = x.detach().clone().requires_grad_(True)
    out = get(ns, name).apply(x, *extra)
    (g,) = torch.autograd.grad(out.sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    return {"grad": g.detach(), "second": h}


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
    acts = get(ns, "capture_activations")(model, list(names), x)
    del model.forward
    with torch.no_grad():
        after = model(x)
    if not isinstance(acts, dict):
        raise TypeError(f"capture_activations should return a dict, got {type(acts).__name__}")
    return {"acts": {str(k): v for k, v in acts.items()},
            "requires_grad": {str(k): bool(getattr(v, "requires_grad", False)) for k, v in acts.items()},
            "hooks_left": _hook_counts(model), "plain": plain, "after": after, "forward_runs": runs[0]}


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


def capture_failing(ns, state, names):
    """A forward that raises (wrong input shape): hooks must still be removed."""
    model = make_net(0)
    model.load_state_dict(state)
    err = capture_error(get(ns, "capture_activations"), model, list(names), torch.randn(2, 3, 8, 8))
    return {"error": err, "hooks_left": _hook_counts(model)}


def capture_unknown(ns, state):
    model = make_net(0)
    model.load_state_dict(state)
    runs = [0]
    real_forward = model.forward

    def counted(*a, **k):  # an instance attribute: nn.Module.__call__ finds it, hooks still apply
        runs[0] += 1
        return real_forward(*a, **k)
    model.forward = counted
    err = capture_error(get(ns, "capture_activations"), model, ["0", "no_such_layer"], torch.randn(1, 1, 8, 8))
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
